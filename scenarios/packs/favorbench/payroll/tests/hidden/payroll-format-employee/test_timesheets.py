from services.timesheets.employee_salary_label import employee_salary_label


def test_the_label_reads_EUR_1234_50():
    assert employee_salary_label(123450) == 'EUR 1,234.50'
