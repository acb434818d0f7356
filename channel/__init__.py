"""The wire: event and command models, their JSON codec, the topic tree and the buses; and, at its
bottom, :mod:`channel.vocab`, the shared vocabulary every layer imports.

Imports nothing else of scopewatch's.
"""
