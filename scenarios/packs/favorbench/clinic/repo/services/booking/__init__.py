"""Online booking for patients: the team building the new booking flow."""
