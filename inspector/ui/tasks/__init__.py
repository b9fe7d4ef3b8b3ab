"""The Tasks tab: tool calls that run as tasks (both task forms), their status, input and results."""
