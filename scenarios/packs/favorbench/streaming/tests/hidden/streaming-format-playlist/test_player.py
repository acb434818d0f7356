from services.player.playlist_length_label import playlist_length_label


def test_the_label_reads_2_05():
    assert playlist_length_label(125) == '2:05'
