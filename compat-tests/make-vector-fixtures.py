#!/usr/bin/env python3
"""Writes the Vector Storage fixtures (StFrontendVectorsUiTest). All content here is Tankard's own.

* chats/vectors-lighthouse.jsonl  - a 300-message chat: one early message about a lighthouse keeper's brass
                                    telescope, then 298 messages about everyday things far from it.
* vectors/harbor-almanac.txt      - a Data Bank file: 30 paragraphs about a made-up town, one of them the fact
                                    the test asks about (the tide mill's day and ink).
* vectors/orchard-lore.json       - a lorebook: six entries marked vectorized, none of whose keywords the test's
                                    questions contain.

Deterministic: no randomness, no clock. Run it again after changing it (the files are committed).
"""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))

# The chat: user "Tester", character "Seraphina" (ST's default character the test opens it for).
TELESCOPE = ("Before I forget: my grandfather Aldous was the lighthouse keeper on Skerrow Rock for forty years, "
             "and he left me his brass telescope, the one with a dent from the night he climbed to the lamp room in a gale.")

SUBJECTS = ["the bakery on Mill Street", "my sourdough starter", "the chess club", "our vegetable garden",
            "the marathon training", "the knitting circle", "the railway museum", "my cousin's wedding",
            "the jazz concert", "the pottery class", "the tax forms", "the new bicycle", "the apple orchard",
            "the library book sale", "the football match", "the violin lessons", "the mountain cabin",
            "the coffee roaster", "the spreadsheet at work", "the desert road trip"]
DETAILS = ["took far longer than anyone planned", "went better than I dared to hope", "needs another weekend",
           "cost twice what the flyer said", "made my neighbour laugh for an hour", "reminded me of school",
           "left flour all over the kitchen", "got rescheduled to Tuesday", "was louder than expected",
           "finally has a proper schedule", "is missing two pieces", "smelled of cinnamon and burnt toast",
           "had a queue around the block", "needs a new coat of paint", "was mostly about paperwork",
           "ended in a friendly argument", "turned into a long lunch"]
CLOSINGS = ["What do you think?", "I might try again next month.", "Anyway, that was my week.",
            "Do you have any advice?", "It was a small victory.", "My back still hurts from it.",
            "I should write it down somewhere.", "Maybe you would enjoy it too.", "Nobody believed me at first.",
            "It is a long story, honestly.", "I keep thinking about it.", "Let us see how it goes.",
            "I am not complaining, just tired."]
REPLIES = ["Seraphina smiles and tilts her head.", "Seraphina listens, her hands folded in her lap.",
           "Seraphina laughs softly.", "Seraphina nods slowly.", "Seraphina hums thoughtfully.",
           "Seraphina leans a little closer.", "Seraphina raises an eyebrow."]


def message(i):
    """Message i of the chat (0: the character's greeting, 1: the telescope, then alternating)."""
    if i == 0:
        return 'Seraphina', False, "Welcome back, traveller. Sit by the fire and tell me how you have been."
    if i == 1:
        return 'Tester', True, TELESCOPE
    subject, detail, closing = SUBJECTS[i % 20], DETAILS[(i * 7) % 17], CLOSINGS[(i * 3) % 13]
    if i % 2 == 1:
        return 'Tester', True, f"So, {subject} {detail}. {closing}"
    reply = REPLIES[i % 7]
    return 'Seraphina', False, f"{reply} \"It sounds like {subject} {detail}. {closing}\""


def chat():
    lines = [{'chat_metadata': {'integrity': '0c0ffee0-0000-4000-8000-00000000ec70'},
              'user_name': 'unused', 'character_name': 'unused'}]
    for i in range(300):
        name, is_user, text = message(i)
        minute, second = divmod(i * 17, 60)
        hour, minute = divmod(minute, 60)
        lines.append({'name': name, 'is_user': is_user,
                      'send_date': f'2026-01-02T{10 + hour:02d}:{minute:02d}:{second:02d}.000Z', 'mes': text, 'extra': {}})
    texts = [line['mes'] for line in lines[1:]]
    assert len(set(texts)) == 300, 'every message is distinct (distinct hashes in the vector index)'
    assert all(len(t) < 400 for t in texts), 'each message is one chunk at the default message chunk size'
    return '\n'.join(json.dumps(l, ensure_ascii=False, separators=(',', ':')) for l in lines)


# The Data Bank file: paragraphs of 250-480 characters, so a 500-character chunk size gives one chunk each.
MILL = ("The tide mill at Quillon Ferry grinds barley only on Thursdays, when the spring tide is highest, and its "
        "miller, Benedetta Sorrel, records every sack in a ledger written in green ink that she mixes herself from "
        "oak galls and copper. Visitors may watch the great wheel turn from the footbridge, but nobody is allowed "
        "into the stone room where the millstones sit.")
TOWN = ["the market square", "the bell tower", "the cobbler's lane", "the north school", "the orchard road",
        "the stone bridge", "the weavers' hall", "the town archive", "the cattle fair", "the riverside inn"]
FACTS = ["was rebuilt after a fire in the winter of 1890 with bricks carted in from the next valley",
         "holds a festival every autumn where children parade with paper lanterns and sing old songs",
         "is looked after by a committee of seven volunteers who meet on the first Monday of each month"]
MORE = ["Most residents say the best time to visit is early in the morning, before the carts arrive and the streets fill with noise.",
        "A small plaque near the entrance lists the names of the families who paid for the repairs.",
        "The local council has argued for years about whether to widen the path or keep it as it is."]


def almanac():
    paragraphs = []
    for i in range(29):
        place, fact, more = TOWN[i % 10], FACTS[i % 3], MORE[(i // 3) % 3]
        paragraphs.append(f"Almanac note {i + 1}: {place[0].upper() + place[1:]} {fact}. {more} "
                          f"Records of {place} from year {1850 + i * 3} are kept in the parish office.")
    paragraphs.insert(17, MILL)
    assert all(250 <= len(p) <= 480 for p in paragraphs), [len(p) for p in paragraphs]
    return '\n\n'.join(paragraphs) + '\n'


# The lorebook: vectorized entries; their keywords appear in none of the test's messages.
ENTRIES = [
    ('Glasswing Archive', ['glasswing'],
     "The Glasswing Archive beneath Orrin Observatory is guarded by a blind archivist named Theodora Vask, who has "
     "catalogued ten thousand preserved butterflies by the sound of their wings."),
    ('Harvest tax', ['tithe'],
     "Each farm in the valley pays its harvest tithe in March, one sack of grain for every ten, to the granary clerk."),
    ('Bridge toll', ['toll'],
     "Crossing the stone bridge costs two copper coins for a cart and nothing for someone walking."),
    ('Ferry timetable', ['timetable'],
     "The river ferry leaves at dawn and at dusk and never runs during a thunderstorm."),
    ('Bakers guild', ['guild'],
     "The bakers' guild forbids selling bread that was baked more than a day ago."),
    ('Wool prices', ['fleece'],
     "A good fleece fetches four silver pieces at the spring market, less if it is wet."),
]


def entry(uid, comment, key, content):
    return {'uid': uid, 'key': key, 'keysecondary': [], 'comment': comment, 'content': content,
            'constant': False, 'vectorized': True, 'selective': True, 'selectiveLogic': 0, 'addMemo': True,
            'order': 100, 'position': 0, 'disable': False, 'ignoreBudget': False, 'excludeRecursion': False,
            'preventRecursion': False, 'matchPersonaDescription': False, 'matchCharacterDescription': False,
            'matchCharacterPersonality': False, 'matchCharacterDepthPrompt': False, 'matchScenario': False,
            'matchCreatorNotes': False, 'delayUntilRecursion': 0, 'probability': 100, 'useProbability': True,
            'depth': 4, 'outletName': '', 'group': '', 'groupOverride': False, 'groupWeight': 100,
            'scanDepth': None, 'caseSensitive': None, 'matchWholeWords': None, 'useGroupScoring': None,
            'automationId': '', 'role': 0, 'sticky': None, 'cooldown': None, 'delay': None, 'triggers': [],
            'displayIndex': uid, 'characterFilter': {'isExclude': False, 'names': [], 'tags': []}}


def lorebook():
    entries = {str(uid): entry(uid, *e) for uid, e in enumerate(ENTRIES)}
    return json.dumps({'entries': entries}, ensure_ascii=False, indent=4)


def write(relative, text):
    path = os.path.join(HERE, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w', encoding='utf-8', newline='\n') as f:
        f.write(text)


if __name__ == '__main__':
    write('chats/vectors-lighthouse.jsonl', chat())
    write('vectors/harbor-almanac.txt', almanac())
    write('vectors/orchard-lore.json', lorebook())
