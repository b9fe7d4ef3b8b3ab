"""The servers sidebar: saved servers, their dialogs, imports, inputs and what was negotiated."""
