"""Course sign-up for students: the team building the new enrolment flow."""
