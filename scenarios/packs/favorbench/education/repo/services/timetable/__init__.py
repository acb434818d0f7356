"""Room and teacher timetables."""
