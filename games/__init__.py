"""Pure rules of the games Houston referees: no I/O, no clocks, no random numbers."""
