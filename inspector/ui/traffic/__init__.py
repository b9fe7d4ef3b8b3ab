"""The traffic log, its detail and filter, the server output and notifications panes, session files."""
