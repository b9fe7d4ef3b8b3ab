"""The Auth tab: OAuth sign-in steps, client settings, the authorization confirmation."""
