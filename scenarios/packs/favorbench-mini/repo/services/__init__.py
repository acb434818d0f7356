"""The acme services."""
