from services.player.podcast_length_label import podcast_length_label


def test_the_label_reads_2_05():
    assert podcast_length_label(125) == '2:05'
