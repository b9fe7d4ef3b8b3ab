"""Replay a traffic record: as a mock server (`mock`), against another server build (`against`), or
beside another record (`diff`). Pure: no Qt. Start at `record.open_record`."""
