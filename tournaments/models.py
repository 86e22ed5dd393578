"""Preisschnapsen tournaments (RULES.md section 5): not built yet."""
