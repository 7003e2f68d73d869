"""People and what they may do: the roles a person holds and the actions each allows."""
