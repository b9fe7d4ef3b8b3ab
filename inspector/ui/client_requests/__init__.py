"""What the server asks of us: sampling and elicitation dialogs, the Roots panel."""
