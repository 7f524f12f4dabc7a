"""Alien on Board: the box keeps rounds, commanders, guesses and scores; decoders stay physical."""
