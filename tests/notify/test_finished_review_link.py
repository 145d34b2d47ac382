"""The e-mail and the push that say a game has ended lead to its review (issue
#34 item 4): the replay's Review tab, said in the player's own language."""

from __future__ import annotations

import pytest
from django.core import mail

from games import services
from games.tasks import run_ready_tasks

pytestmark = pytest.mark.django_db(transaction=True)

# The sentence before the review's link in the e-mail, and the push's last
# words, as each language's players read them.
WORDS = {
    "en": (
        "The game's review (each player's accuracy, the key moments, the best "
        "decisions), once it is made:",
        "Open it to see the game's review.",
    ),
    "vi": (
        "Phần phân tích ván (độ chính xác của mỗi người chơi, các khoảnh khắc "
        "then chốt, các nước đi tốt nhất), khi đã xong:",
        "Mở để xem phần phân tích ván.",
    ),
    "pt_BR": (
        "A análise da partida (a precisão de cada jogador, os momentos decisivos, "
        "as melhores jogadas), assim que estiver pronta:",
        "Abra para ver a análise da partida.",
    ),
    "ko": (
        "게임 분석(각 플레이어의 정확도, 결정적인 순간, 최선의 수)은 완성되면 "
        "여기에서 볼 수 있습니다:",
        "열어서 게임 분석을 보세요.",
    ),
}


@pytest.mark.parametrize("language", list(WORDS))
def test_the_game_over_email_and_push_link_to_its_review(
    players, start_game, subscribe, push_service, settings, language
):
    settings.SITE_URL = "https://azul.example"
    ana, binh = players[:2]
    for user in (ana, binh):
        user.language = "" if language == "en" else language
        user.notify_finished = "both"
        user.save()
    browser = subscribe(ana)
    game = start_game([ana, binh])
    run_ready_tasks()
    mail.outbox.clear()
    push_service.received.clear()

    services.game_resign(game_id=game.pk, user=binh)
    run_ready_tasks()
    review = f"/games/{game.pk}/replay/?tab=review"

    sentence, tap = WORDS[language]
    [email] = [m for m in mail.outbox if m.to == [ana.email]]
    lines = email.body.splitlines()
    # the game's page, then the sentence and the review's own address
    assert f"https://azul.example/games/{game.pk}/" in lines
    at = lines.index(sentence)
    assert lines[at + 1] == f"https://azul.example{review}"

    [message] = push_service.received
    payload = browser.decrypt(message)
    assert payload["url"] == review  # a click opens the Review tab
    assert payload["body"].endswith(f" — {tap}")
