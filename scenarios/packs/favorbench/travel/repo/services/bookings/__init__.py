"""Trip bookings: the team shipping the new booking pages."""
