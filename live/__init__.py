"""Live event streams: Server-Sent Events of a match's log and of an account's news,
the long-poll of ``events/``, and their fan-out (in process, or through Redis)."""
