"""Shopping carts."""

from services.platform import config


class Cart:
    def __init__(self, created_minute):
        self.created_minute = created_minute
        self.lines = []

    def add(self, sku, cents, quantity=1):
        self.lines.append((sku, cents, quantity))

    def total_cents(self):
        return sum(cents * quantity for _, cents, quantity in self.lines)

    def expires_at(self):
        """The minute this cart is dropped."""
        return self.created_minute + config.get("cart_ttl_minutes")
