"""Assigns parcels to trucks: the team shipping the new dispatch board."""
