"""Stock sync with suppliers, who bill per API call."""
