"""Discord components and messages: thin, built from views and the table layer."""
