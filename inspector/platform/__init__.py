"""The platform seam: the one place that knows POSIX from Windows (and macOS from Linux).

`processes` (start a child with pipes in its own group, end it, forward signals), `locks` (an exclusive
lock on a folder), `procfs` (what Linux's ``/proc`` tells, None elsewhere), `permissions` (user-only
files and folders: POSIX modes, or the user-only ACL on Windows), `folders` (the per-user data folder).
Stdlib only and imported lazily where it matters: the tap and the CLI start through it.
"""
