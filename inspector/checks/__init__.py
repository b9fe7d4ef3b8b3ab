"""Checks a server's author can run: collections of steps with assertions, and the server doctor. No Qt."""
