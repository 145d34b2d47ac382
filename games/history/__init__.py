"""Finished games: the archive and replay pages, the review as the replay shows it and
its fair queue, the rules pages.
"""
