#!/usr/bin/env python3
"""Imports every fixture in compat-tests/chats/import/ through a real SillyTavern server's /api/chats/import
and stores what it wrote as compat-tests/chats/import/expected/<fixture>.jsonl (several files: -1, -2, ...).

Usage: compat-tests/record-chat-imports.py ST_INSTALL_DIR [PORT]

The converters stamp messages with the import time; those send_date values are replaced by @NOW@ (the test,
ChatImportCompatTest, does the same with the times of its own request). Everything else is ST's bytes. Only
a developer runs this; CI only compares. CAI Tools is not recorded: ST 1.18.0's converter fails (see README).
"""
import datetime, http.cookiejar, json, os, re, shutil, subprocess, sys, tempfile, time, urllib.request, uuid

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, 'chats', 'import')
EXPECTED = os.path.join(FIXTURES, 'expected')
SEND_DATE = re.compile(rb'"send_date":"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)"')
BROKEN_IN_ST = {'cai-tools.json'}


def main():
    st_dir = sys.argv[1]
    port = int(sys.argv[2]) if len(sys.argv) > 2 else 8766
    work = tempfile.mkdtemp(prefix='tankard-chat-import-')
    data = os.path.join(work, 'data')
    with open(os.path.join(work, 'config.yaml'), 'w') as f:
        json.dump({'skipContentCheck': True, 'browserLaunch': {'enabled': False}, 'port': port}, f)
    env = dict(os.environ, SILLYTAVERN_BROWSERLAUNCH_ENABLED='false')
    server = subprocess.Popen(['node', 'server.js', '--configPath', os.path.join(work, 'config.yaml'),
                               '--dataRoot', data, '--port', str(port)], cwd=st_dir, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = f'http://127.0.0.1:{port}'
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        token = wait_for_token(opener, base)
        post(opener, base + '/api/chats/get', token, json.dumps({'avatar_url': 'Bramble.png'}).encode(),
             'application/json')  # creates chats/Bramble/
        os.makedirs(EXPECTED, exist_ok=True)
        for fixture in sorted(os.listdir(FIXTURES)):
            path = os.path.join(FIXTURES, fixture)
            if not os.path.isfile(path) or fixture in BROKEN_IN_ST:
                continue
            start = time.time()
            answer = json.loads(import_chat(opener, base, token, path))
            end = time.time()
            names = answer['fileNames']
            stem = os.path.splitext(fixture)[0]
            for i, name in enumerate(names):
                with open(os.path.join(data, 'default-user', 'chats', 'Bramble', name), 'rb') as f:
                    content = mask_now(f.read(), start, end)
                suffix = '' if len(names) == 1 else f'-{i + 1}'
                with open(os.path.join(EXPECTED, stem + suffix + '.jsonl'), 'wb') as f:
                    f.write(content)
            print(fixture, '->', names)
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(work, ignore_errors=True)


def mask_now(content, start, end):
    def replace(match):
        stamp = datetime.datetime.strptime(match.group(1).decode(), '%Y-%m-%dT%H:%M:%S.%fZ')
        seconds = stamp.replace(tzinfo=datetime.timezone.utc).timestamp()
        return b'"send_date":"@NOW@"' if start - 1 <= seconds <= end + 1 else match.group(0)
    return SEND_DATE.sub(replace, content)


def import_chat(opener, base, token, path):
    boundary = uuid.uuid4().hex
    fields = {'file_type': os.path.splitext(path)[1][1:], 'avatar_url': 'Bramble.png',
              'character_name': 'Bramble', 'user_name': 'Wren'}
    body = b''
    for key, value in fields.items():
        body += f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n{value}\r\n'.encode()
    with open(path, 'rb') as f:
        body += (f'--{boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="{os.path.basename(path)}"'
                 f'\r\nContent-Type: application/octet-stream\r\n\r\n').encode() + f.read() + b'\r\n'
    body += f'--{boundary}--\r\n'.encode()
    return post(opener, base + '/api/chats/import', token, body, 'multipart/form-data; boundary=' + boundary)


def post(opener, url, token, body, content_type):
    request = urllib.request.Request(url, data=body, method='POST',
                                     headers={'X-CSRF-Token': token, 'Content-Type': content_type})
    return opener.open(request).read()


def wait_for_token(opener, base):
    for _ in range(600):
        try:
            return json.load(opener.open(base + '/csrf-token'))['token']
        except OSError:
            time.sleep(0.1)
    raise SystemExit('ST did not start')


if __name__ == '__main__':
    main()
