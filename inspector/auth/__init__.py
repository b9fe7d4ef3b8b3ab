"""OAuth for HTTP servers, on the SDK's OAuth client provider. No Qt.

`ServerAuth(profile)` is the entry point: `.provider` for connections, `sign_in`, `refresh`,
`sign_out`, `state()`; `.log` is the step list the Auth panel shows.
"""
