"""Houston, We Have a Dolphin! — the box keeps the hidden layout and resolves spacewalks in secret."""
