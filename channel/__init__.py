"""The wire: event and command models, their JSON codec, the topic tree and the buses.

Imports nothing else of scopewatch's.
"""
