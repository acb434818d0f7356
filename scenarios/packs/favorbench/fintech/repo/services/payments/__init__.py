"""Card and bank transfers: the team shipping new payment features."""
