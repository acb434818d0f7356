from services.player.artist_share_label import artist_share_label


def test_the_label_reads_12_5pct():
    assert artist_share_label(0.125) == '12.5%'
