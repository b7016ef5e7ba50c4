#!/usr/bin/env python3
"""Writes the ST-format fixture data roots under compat-tests/data/. All content here is Tankard's own.

Run it again after changing it; the replay test reads the files it writes (they are committed).
"""
import base64, hashlib, json, os, shutil, struct, zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def png(width, height, rgb, text_chunks=()):
    """A small solid-colour PNG with optional tEXt chunks (keyword, latin-1 text)."""
    def chunk(kind, data):
        body = kind + data
        return struct.pack('>I', len(data)) + body + struct.pack('>I', zlib.crc32(body) & 0xffffffff)
    raw = b''.join(b'\x00' + bytes(rgb) * width for _ in range(height))
    out = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', width, height, 8, 2, 0, 0, 0))
    for keyword, text in text_chunks:
        out += chunk(b'tEXt', keyword.encode('latin-1') + b'\x00' + text.encode('latin-1'))
    return out + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b'')


def card(name, description, first_mes, **extra):
    data = {
        'name': name, 'description': description, 'personality': '', 'scenario': '', 'first_mes': first_mes,
        'mes_example': '', 'creator_notes': '', 'system_prompt': '', 'post_history_instructions': '',
        'tags': extra.get('tags', []), 'creator': 'Tankard fixtures', 'character_version': '1.0',
        'alternate_greetings': extra.get('alternate_greetings', []),
        'extensions': {'talkativeness': '0.5', 'fav': False, 'world': extra.get('world', ''),
                       'depth_prompt': {'prompt': '', 'depth': 4, 'role': 'system'}},
    }
    v2 = {'name': name, 'description': description, 'personality': '', 'scenario': '', 'first_mes': first_mes,
          'mes_example': '', 'creatorcomment': '', 'avatar': 'none', 'chat': name + ' - 2026-01-01@10h00m00s000ms',
          'talkativeness': '0.5', 'fav': False, 'tags': data['tags'], 'spec': 'chara_card_v2', 'spec_version': '2.0',
          'data': data, 'create_date': '2026-01-01T10:00:00.000Z'}
    return json.dumps(v2, ensure_ascii=False, separators=(',', ':'))


def b64(text):
    return base64.b64encode(text.encode('utf-8')).decode('ascii')


def write(path, content):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    mode = 'wb' if isinstance(content, bytes) else 'w'
    with open(path, mode, **({} if mode == 'wb' else {'encoding': 'utf-8', 'newline': '\n'})) as f:
        f.write(content)


def pretty(obj):
    return json.dumps(obj, ensure_ascii=False, indent=4)


def jsonl(lines):
    return '\n'.join(json.dumps(l, ensure_ascii=False, separators=(',', ':')) for l in lines)


def basic():
    root = os.path.join(HERE, 'data', 'basic')
    shutil.rmtree(root, ignore_errors=True)
    u = os.path.join(root, 'default-user')
    write(os.path.join(u, 'settings.json'), pretty({
        'firstRun': False, 'username': 'Rowan', 'active_character': 'Aria.png', 'main_api': 'openai',
        'user_avatar': 'rowan.png', 'power_user': {'auto_load_chat': False, 'default_persona': 'rowan.png'},
        'extension_settings': {}, 'background': {'name': 'dusk.png'}, 'amount_gen': 250, 'max_context': 8192,
        'temperature': 0.7,
    }))
    write(os.path.join(u, 'secrets.json'), pretty({
        'api_key_openai': [{'id': '7f3c2a9e-0000-4000-8000-000000000001', 'value': 'sk-fixture-0123456789',
                            'label': 'Fixture', 'active': True}],
        'api_key_claude': [{'id': '7f3c2a9e-0000-4000-8000-000000000002', 'value': 'short', 'label': 'Tiny',
                            'active': True}],
    }))
    aria = card('Aria', 'A lighthouse keeper who collects storm stories.', 'The lamp is lit. Come in out of the rain.',
                tags=['coast', 'calm'], alternate_greetings=['Another storm tonight, {{user}}?'], world='Hearth')
    write(os.path.join(u, 'characters', 'Aria.png'), png(8, 12, (30, 60, 90), [('chara', b64(aria))]))
    bram = card('Bram', 'A baker who talks to his sourdough.', 'Flour everywhere. Mind your step!')
    write(os.path.join(u, 'characters', 'Bram.png'), png(8, 12, (200, 160, 90), [('chara', b64(bram))]))
    header = {'user_name': 'Rowan', 'character_name': 'Aria', 'create_date': '2026-01-01@10h00m00s000ms',
              'chat_metadata': {'integrity': '0f0e0d0c-0000-4000-8000-00000000c4a7', 'chat_id_hash': 1234567890123456,
                                'note_prompt': '', 'note_interval': 1}}
    write(os.path.join(u, 'chats', 'Aria', 'Aria - 2026-01-01@10h00m00s000ms.jsonl'), jsonl([
        header,
        {'name': 'Aria', 'is_user': False, 'is_system': False, 'send_date': '2026-01-01T10:00:00.000Z',
         'mes': 'The lamp is lit. Come in out of the rain.', 'extra': {}},
        {'name': 'Rowan', 'is_user': True, 'is_system': False, 'send_date': '2026-01-01T10:00:05.000Z',
         'mes': 'Thank you. Any storm stories tonight?', 'extra': {}},
        {'name': 'Aria', 'is_user': False, 'is_system': False, 'send_date': '2026-01-01T10:00:09.000Z',
         'mes': 'Always. Sit by the stove.', 'extra': {'memory': 'Rowan arrived during a storm.'},
         'swipe_id': 0, 'swipes': ['Always. Sit by the stove.', 'Only if you share one too.'],
         'swipe_info': [{'send_date': '2026-01-01T10:00:09.000Z', 'extra': {}},
                        {'send_date': '2026-01-01T10:00:11.000Z', 'extra': {}}]},
    ]))
    write(os.path.join(u, 'worlds', 'Hearth.json'), pretty({'entries': {
        '0': {'uid': 0, 'key': ['stove'], 'keysecondary': [], 'comment': 'The stove', 'content': 'An old iron stove.',
              'constant': False, 'selective': True, 'order': 100, 'position': 0, 'disable': False},
    }}))
    write(os.path.join(u, 'OpenAI Settings', 'Fixture Chat.json'), pretty({'temperature': 0.8, 'openai_max_context': 8192}))
    write(os.path.join(u, 'TextGen Settings', 'Fixture Text.json'), pretty({'temp': 0.7, 'top_p': 0.9, 'rep_pen': 1.1}))
    write(os.path.join(u, 'TextGen Settings', 'Broken.json'), '{"temp": ')
    write(os.path.join(u, 'instruct', 'Fixture ChatML.json'), pretty({'name': 'Fixture ChatML', 'input_sequence': '<|im_start|>user', 'output_sequence': '<|im_start|>assistant'}))
    write(os.path.join(u, 'context', 'Fixture Context.json'), pretty({'name': 'Fixture Context', 'story_string': '{{description}}'}))
    write(os.path.join(u, 'themes', 'Fixture Theme.json'), pretty({'name': 'Fixture Theme', 'blur_strength': 5}))
    write(os.path.join(u, 'backgrounds', 'dusk.png'), png(32, 18, (80, 40, 90)))
    write(os.path.join(u, 'User Avatars', 'rowan.png'), png(8, 12, (10, 120, 60)))
    write(os.path.join(u, 'groups', '1767261600000.json'), pretty({
        'id': '1767261600000', 'name': 'Aria and Bram', 'members': ['Aria.png', 'Bram.png'], 'avatar_url': '',
        'allow_self_responses': False, 'activation_strategy': 0, 'generation_mode': 0, 'disabled_members': [],
        'fav': False, 'chat_id': '2026-01-02@09h00m00s000ms', 'chats': ['2026-01-02@09h00m00s000ms'],
    }))
    write(os.path.join(u, 'group chats', '2026-01-02@09h00m00s000ms.jsonl'), jsonl([
        {'chat_metadata': {'integrity': '0f0e0d0c-0000-4000-8000-00000000a11a'}, 'user_name': 'unused', 'character_name': 'unused'},
        {'name': 'Bram', 'is_user': False, 'is_system': False, 'send_date': '2026-01-02T09:00:00.000Z',
         'mes': 'Fresh bread for the keeper!', 'extra': {}, 'original_avatar': 'Bram.png'},
    ]))


def st_start_artifacts(root, settings_file):
    """What an ST 1.18.0 start leaves in a data root (ST: src/server-main.js, preSetupTasks), so the fixture is a
    data root as ST hands it over: the account store, the cookie secret, seeding logs, the system-prompt marker and
    the start-up settings snapshot. The log entries are this fixture's own names."""
    key = 'user:default-user'
    record = {'key': key, 'value': {'handle': 'default-user', 'name': 'User', 'created': 1767261600000,
                                    'password': '', 'admin': True, 'enabled': True, 'salt': ''}}
    write(os.path.join(root, '_storage', hashlib.sha256(key.encode()).hexdigest()),
          json.dumps(record, separators=(',', ':')))
    write(os.path.join(root, 'cookie-secret.txt'), base64.b64encode(b'tankard-fixture-cookie-secret-0123456789abcdef0123456789abcdef0').decode())
    write(os.path.join(root, 'content.log'), 'errors/fixture-error.html')
    u = os.path.join(root, 'default-user')
    write(os.path.join(u, 'content.log'), 'settings.json\ncharacters/Aria.png')
    write(os.path.join(u, 'sysprompt', '.migrated'), '')
    with open(settings_file, 'rb') as f:
        write(os.path.join(u, 'backups', 'settings_default-user_20260101-100000.json'), f.read())


if __name__ == '__main__':
    basic()
    st_start_artifacts(os.path.join(HERE, 'data', 'basic'),
                       os.path.join(HERE, 'data', 'basic', 'default-user', 'settings.json'))
