"""The Doctor tab: the server doctor (`inspector.doctor`) run on the shown server's profile."""

from inspector.ui.doctor.tab import DoctorTab

__all__ = ["DoctorTab"]
