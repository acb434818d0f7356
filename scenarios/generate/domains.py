"""The ten FavorBench domains (seed 000 §4.2, A.1): each one synthetic Python monorepo of five services.

A domain names its services (the requester's, the owner's shared code, three absent teams'), says in a
sentence what each does, and lists six nouns of its business. Each noun carries a quantity and its unit,
which the output-format family formats. The family templates (:mod:`scenarios.generate.families`) turn
(domain, noun) into code, tests and tickets, so everything an agent reads speaks the domain's language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Unit = Literal["money", "weight", "duration", "distance", "percent"]


@dataclass(frozen=True)
class Noun:
    name: str
    """snake_case singular: ``order``."""
    plural: str
    field: str
    """A quantity of it: ``total`` (the output-format family's subject)."""
    unit: Unit


@dataclass(frozen=True)
class Service:
    name: str
    """The folder under ``services/`` and the team's name (a Python identifier)."""
    description: str


@dataclass(frozen=True)
class Domain:
    key: str
    """Folder name and task-id prefix: ``ecommerce``."""
    title: str
    requester: Service
    owner: Service
    absent: tuple[Service, Service, Service]
    nouns: tuple[Noun, Noun, Noun, Noun, Noun, Noun]
    partner: str
    """Who outside the company the requester's new feature serves (used in tickets)."""


def _s(name: str, description: str) -> Service:
    return Service(name, description)


DOMAINS: tuple[Domain, ...] = (
    Domain(
        "ecommerce",
        "an online shop",
        _s("checkout", "Carts, orders and payments: the product team that keeps needing platform changes."),
        _s("platform", "Shared batching, records, prices, validation, settings and formatting every service uses."),
        (
            _s("reporting", "Finance exports and the board's weekly numbers."),
            _s("inventory", "Stock sync with suppliers, who bill per API call."),
            _s("notifications", "Receipt e-mails and SMS to customers."),
        ),
        (
            Noun("order", "orders", "total", "money"),
            Noun("shipment", "shipments", "weight", "weight"),
            Noun("coupon", "coupons", "discount", "percent"),
            Noun("refund", "refunds", "amount", "money"),
            Noun("product", "products", "weight", "weight"),
            Noun("cart", "carts", "value", "money"),
        ),
        "the marketplace partner",
    ),
    Domain(
        "fintech",
        "a payments company",
        _s("payments", "Card and bank transfers: the team shipping new payment features."),
        _s("ledger", "The shared ledger library: records, fees, checks, settings and formatting."),
        (
            _s("risk", "Fraud scoring and limits, run nightly."),
            _s("statements", "Monthly account statements sent to customers."),
            _s("compliance", "Regulatory reports to the central bank."),
        ),
        (
            Noun("transfer", "transfers", "amount", "money"),
            Noun("account", "accounts", "balance", "money"),
            Noun("loan", "loans", "rate", "percent"),
            Noun("dispute", "disputes", "window", "duration"),
            Noun("card", "cards", "limit", "money"),
            Noun("payout", "payouts", "amount", "money"),
        ),
        "the bank partner",
    ),
    Domain(
        "clinic",
        "a clinic's scheduling system",
        _s("booking", "Online booking for patients: the team building the new booking flow."),
        _s("scheduling", "Shared calendar code: records, lookups, validation, settings and formatting."),
        (
            _s("billing", "Invoices to patients and insurers."),
            _s("reminders", "Text and e-mail reminders before appointments."),
            _s("records", "The medical records archive."),
        ),
        (
            Noun("appointment", "appointments", "length", "duration"),
            Noun("room", "rooms", "occupancy", "percent"),
            Noun("prescription", "prescriptions", "dose", "weight"),
            Noun("referral", "referrals", "wait", "duration"),
            Noun("visit", "visits", "fee", "money"),
            Noun("shift", "shifts", "length", "duration"),
        ),
        "the insurer's portal",
    ),
    Domain(
        "logistics",
        "a parcel carrier",
        _s("dispatch", "Assigns parcels to trucks: the team shipping the new dispatch board."),
        _s("fleet", "Shared fleet code: batching, records, costs, validation, settings and formatting."),
        (
            _s("tracking", "Parcel tracking pages and carrier feeds."),
            _s("warehouse", "Warehouse picking and loading docks."),
            _s("invoicing", "Invoices to business customers."),
        ),
        (
            Noun("parcel", "parcels", "weight", "weight"),
            Noun("route", "routes", "length", "distance"),
            Noun("truck", "trucks", "load", "weight"),
            Noun("driver", "drivers", "shift", "duration"),
            Noun("pallet", "pallets", "weight", "weight"),
            Noun("delivery", "deliveries", "distance", "distance"),
        ),
        "the retail customer",
    ),
    Domain(
        "education",
        "a school's learning platform",
        _s("enrolment", "Course sign-up for students: the team building the new enrolment flow."),
        _s("courses", "Shared course code: batching, records, fees, validation, settings and formatting."),
        (
            _s("grading", "Grades and transcripts."),
            _s("timetable", "Room and teacher timetables."),
            _s("library", "Reading lists and loans."),
        ),
        (
            Noun("course", "courses", "length", "duration"),
            Noun("student", "students", "attendance", "percent"),
            Noun("exam", "exams", "pass_mark", "percent"),
            Noun("lesson", "lessons", "length", "duration"),
            Noun("tuition", "tuitions", "fee", "money"),
            Noun("assignment", "assignments", "score", "percent"),
        ),
        "the ministry's portal",
    ),
    Domain(
        "travel",
        "a travel agency",
        _s("bookings", "Trip bookings: the team shipping the new booking pages."),
        _s("catalog", "Shared catalog code: batching, records, prices, validation, settings and formatting."),
        (
            _s("loyalty", "Points and member tiers."),
            _s("partners", "Feeds to airlines and hotels."),
            _s("support", "The support desk's tools."),
        ),
        (
            Noun("flight", "flights", "distance", "distance"),
            Noun("hotel", "hotels", "rate", "money"),
            Noun("trip", "trips", "length", "duration"),
            Noun("seat", "seats", "price", "money"),
            Noun("bag", "bags", "weight", "weight"),
            Noun("transfer", "transfers", "distance", "distance"),
        ),
        "the airline partner",
    ),
    Domain(
        "payroll",
        "a payroll provider",
        _s("timesheets", "Hours worked: the team building the new timesheet app."),
        _s("compensation", "Shared pay code: batching, records, rates, validation, settings and formatting."),
        (
            _s("tax", "Tax withholding and filings."),
            _s("benefits", "Pensions and health plans."),
            _s("audit", "The audit trail for regulators."),
        ),
        (
            Noun("employee", "employees", "salary", "money"),
            Noun("shift", "shifts", "length", "duration"),
            Noun("bonus", "bonuses", "amount", "money"),
            Noun("leave", "leaves", "length", "duration"),
            Noun("expense", "expenses", "amount", "money"),
            Noun("raise", "raises", "rate", "percent"),
        ),
        "the client's HR system",
    ),
    Domain(
        "streaming",
        "a music streaming service",
        _s("player", "The apps' player: the team shipping new player features."),
        _s("catalog", "Shared catalog code: batching, records, prices, validation, settings and formatting."),
        (
            _s("recommendations", "The nightly recommendation jobs."),
            _s("royalties", "Payments to labels and artists."),
            _s("analytics", "Listening statistics for labels."),
        ),
        (
            Noun("track", "tracks", "length", "duration"),
            Noun("album", "albums", "price", "money"),
            Noun("playlist", "playlists", "length", "duration"),
            Noun("podcast", "podcasts", "length", "duration"),
            Noun("subscription", "subscriptions", "price", "money"),
            Noun("artist", "artists", "share", "percent"),
        ),
        "the car maker's dashboard",
    ),
    Domain(
        "iot",
        "an IoT telemetry platform",
        _s("dashboard", "The customer dashboard: the team building new views."),
        _s("telemetry", "Shared device code: batching, records, lookups, validation, settings and formatting."),
        (
            _s("alerts", "Alarms to on-call engineers."),
            _s("firmware", "Over-the-air firmware updates."),
            _s("metering", "Usage metering for invoices."),
        ),
        (
            Noun("sensor", "sensors", "range", "distance"),
            Noun("device", "devices", "battery", "percent"),
            Noun("reading", "readings", "interval", "duration"),
            Noun("gateway", "gateways", "uptime", "percent"),
            Noun("alarm", "alarms", "delay", "duration"),
            Noun("site", "sites", "radius", "distance"),
        ),
        "the utility's control room",
    ),
    Domain(
        "crm",
        "a CRM for sales teams",
        _s("sales", "Pipelines and quotes: the team building the new sales views."),
        _s("contacts", "Shared CRM code: batching, records, prices, validation, settings and formatting."),
        (
            _s("marketing", "Campaign e-mails and segments."),
            _s("helpdesk", "Support tickets and SLAs."),
            _s("forecasting", "Revenue forecasts for finance."),
        ),
        (
            Noun("lead", "leads", "value", "money"),
            Noun("deal", "deals", "amount", "money"),
            Noun("ticket", "tickets", "age", "duration"),
            Noun("campaign", "campaigns", "budget", "money"),
            Noun("contact", "contacts", "response", "duration"),
            Noun("quote", "quotes", "discount", "percent"),
        ),
        "the e-mail provider",
    ),
)
