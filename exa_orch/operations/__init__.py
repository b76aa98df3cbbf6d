"""operations layer."""
