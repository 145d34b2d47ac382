"""The live game's parts both families share: each seat's time left, the move log in
words, the move codecs' shared parts, the shared refusals and the final result
table.
"""
