"""Hours worked: the team building the new timesheet app."""
