"""gateway layer."""
