"""Who is around a game: open pages and presence, watchers and the watch page, a
player's profile.
"""
