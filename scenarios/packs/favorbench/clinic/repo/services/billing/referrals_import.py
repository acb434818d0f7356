"""Billing imports old referrals whose codes are short and lower-case, like "ab12"."""

from services.scheduling.validation import valid_referral_code


def importable(codes):
    return [code for code in codes if valid_referral_code(code)]
