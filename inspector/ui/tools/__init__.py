"""The Tools tab: tool list, argument form, calls in flight, results and history."""
