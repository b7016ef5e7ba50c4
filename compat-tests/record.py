#!/usr/bin/env python3
"""Records the responses of a real SillyTavern server for a scenario, so the test suite can replay them
against Tankard (src/test/java/tankard/compat/CompatReplayTest.java).

Usage: compat-tests/record.py SCENARIO.json ST_INSTALL_DIR [PORT]

The scenario names a fixture data root (compat-tests/data/<fixture>), config.yaml keys and a list of
requests. ST runs on a temporary copy of the fixture with skipContentCheck, so only the fixture's own
content is served. Each exchange's "response" (status, body type, body) is written back into the file.
Only a developer runs this (it needs an ST install); CI only replays.
"""
import http.cookiejar, json, os, shutil, subprocess, sys, tempfile, time, urllib.error, urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    scenario_path, st_dir = sys.argv[1], sys.argv[2]
    port = int(sys.argv[3]) if len(sys.argv) > 3 else 8765
    scenario = json.load(open(scenario_path, encoding='utf-8'))
    work = tempfile.mkdtemp(prefix='tankard-record-')
    data = os.path.join(work, 'data')
    shutil.copytree(os.path.join(HERE, 'data', scenario['fixture']), data)
    stamp_times(data)
    config = dict(scenario.get('config', {}))
    config.update({'skipContentCheck': True, 'browserLaunch': {'enabled': False}, 'port': port})
    with open(os.path.join(work, 'config.yaml'), 'w') as f:
        json.dump(config, f)  # JSON is YAML
    env = dict(os.environ, SILLYTAVERN_BROWSERLAUNCH_ENABLED='false')
    server = subprocess.Popen(['node', 'server.js', '--configPath', os.path.join(work, 'config.yaml'),
                               '--dataRoot', data, '--port', str(port)], cwd=st_dir, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = f'http://127.0.0.1:{port}'
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        token = wait_for_token(opener, base)
        for exchange in scenario['exchanges']:
            exchange['response'] = send(opener, base, token, exchange['request'])
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(work, ignore_errors=True)
    with open(scenario_path, 'w', encoding='utf-8') as f:
        json.dump(scenario, f, ensure_ascii=False, indent=2)
        f.write('\n')


def stamp_times(root):
    """Gives every file a fixed mtime (one second apart, in path order) so that listings sorted by date come
    out the same in every checkout. CompatReplayTest does the same."""
    files = sorted(os.path.relpath(os.path.join(d, f), root).replace(os.sep, '/')
                   for d, _, fs in os.walk(root) for f in fs)
    for i, rel in enumerate(files):
        t = 1767261600 + i
        os.utime(os.path.join(root, rel), (t, t))


def wait_for_token(opener, base):
    for _ in range(600):
        try:
            return json.load(opener.open(base + '/csrf-token'))['token']
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.1)
    raise SystemExit('ST did not start')


def send(opener, base, token, req):
    body = None
    headers = {'X-CSRF-Token': token}
    if 'json' in req:
        body = json.dumps(req['json']).encode('utf-8')
        headers['Content-Type'] = 'application/json'
    elif 'raw' in req:
        body = req['raw'].encode('utf-8')
        headers['Content-Type'] = req.get('contentType', 'application/json')
    r = urllib.request.Request(base + req['path'], data=body, headers=headers, method=req.get('method', 'POST'))
    try:
        resp = opener.open(r)
        status, ctype, raw = resp.status, resp.headers.get('Content-Type', ''), resp.read()
    except urllib.error.HTTPError as e:
        status, ctype, raw = e.code, e.headers.get('Content-Type', ''), e.read()
    if not raw:
        return {'status': status, 'type': 'empty'}
    if ctype.startswith('application/json'):
        return {'status': status, 'type': 'json', 'body': json.loads(raw)}
    return {'status': status, 'type': 'text', 'body': raw.decode('utf-8', 'replace')}


if __name__ == '__main__':
    main()
