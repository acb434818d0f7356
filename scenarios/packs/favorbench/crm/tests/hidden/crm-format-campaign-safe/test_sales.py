from services.sales.campaign_budget_label import campaign_budget_label


def test_the_label_reads_EUR_1234_50():
    assert campaign_budget_label(123450) == 'EUR 1,234.50'
