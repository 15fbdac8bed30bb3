"""Sample writing-agent order table and scenario (blackboard + workers); a package so they ship as package data."""
