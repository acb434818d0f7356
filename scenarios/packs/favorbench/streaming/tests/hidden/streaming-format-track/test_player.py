from services.player.track_length_label import track_length_label


def test_the_label_reads_2_05():
    assert track_length_label(125) == '2:05'
