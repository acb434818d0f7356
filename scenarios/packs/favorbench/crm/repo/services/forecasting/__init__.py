"""Revenue forecasts for finance."""
