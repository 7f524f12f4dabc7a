"""What the box says: message catalogues rendered to text, and the speakers that say it."""
