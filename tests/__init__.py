"""Tests for exa-orch."""
