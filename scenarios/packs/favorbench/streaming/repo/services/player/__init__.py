"""The apps' player: the team shipping new player features."""
