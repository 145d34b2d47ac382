"""Finding a game: invitations by link (the game's secret link and its pages)."""
