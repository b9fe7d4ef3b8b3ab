"""The Resources and Prompts tabs: paginated listings, reads, prompt messages, completion."""
