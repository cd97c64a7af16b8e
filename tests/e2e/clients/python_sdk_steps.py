"""Drives the official Python client of the platform API (PyPI squarecloud-api) through its public
methods over what the project's API contract covers, against the server named by PLATFORM_URL.

Every step runs, whatever an earlier one did; the report on stdout is one JSON object: the client's
version and, per step, its name, whether it passed and, if not, why. The keys, the ids of seeded
objects and the contract's values come from the environment (python-sdk.test.ts sets them).
"""

import json
import os
import sys
import traceback

import squarecloud
from squarecloud import SquareCloud, SquareCloudAPIError
from squarecloud import types as t

env = os.environ
base_url = env['PLATFORM_URL'].rstrip('/') + '/v2'
owner = SquareCloud(env['OWNER_KEY'], base_url=base_url, max_retries=0)
invitee = SquareCloud(env['INVITEE_KEY'], base_url=base_url, max_retries=0)
app_id = env['APP_ID']
app_file = env['APP_FILE']
snapshot_database = env['SNAPSHOT_DATABASE']
snapshot_version = env['SNAPSHOT_VERSION']

steps = []
made = {}
# Fields the client's own response types (squarecloud.types, TypedDicts) require that an answer
# lacked: the client reads them as plain dicts and does not fail, so these are reported apart.
lacking = {}


def typed(answer, shape, where):
    """The answer, after noting the fields its TypedDict requires and it lacks."""
    items = answer if isinstance(answer, list) else [answer]
    for item in items:
        missing = sorted(shape.__required_keys__ - set(item))
        if missing:
            lacking[where] = missing
    return answer


def step(name):
    def run(check):
        try:
            check()
            steps.append({'step': name, 'passed': True})
        except Exception as error:  # a failed step is reported, the rest still run
            detail = str(error) or type(error).__name__
            if not isinstance(error, (AssertionError, SquareCloudAPIError)):
                detail += ' | ' + traceback.format_exc(limit=3).replace('\n', ' ')
            steps.append({'step': name, 'passed': False, 'detail': detail})
        return check

    return run


def refused(call, status, code):
    try:
        call()
    except SquareCloudAPIError as error:
        assert (error.status, error.code) == (status, code), f'got {error.status} {error.code}'
        return
    raise AssertionError(f'no error; expected {status} {code}')


# ---- account


@step('account.me: the user, the plan, the apps and the databases')
def _():
    me = owner.account.me()
    typed(me['user'], t.User, 'account.me user')
    typed(me['applications'], t.AppSummary, 'account.me applications')
    typed(me['databases'], t.DatabaseSummary, 'account.me databases')
    assert me['user']['id'] == env['OWNER_ID'], me['user']
    assert me['user']['plan']['memory']['limit'] > 0
    assert any(app['id'] == app_id for app in me['applications'])
    assert any(db['id'] == snapshot_database for db in me['databases'])


@step('account.snapshots: the applications scope, then the databases scope')
def _():
    apps = typed(owner.account.snapshots(), t.Snapshot, 'account.snapshots')
    assert apps and all(entry['name'] and entry['key'] for entry in apps), apps
    databases = owner.account.snapshots(scope='databases')
    assert any(entry['name'] == snapshot_database for entry in databases), databases


@step('a refused key is 401 ACCESS_DENIED')
def _():
    stranger = SquareCloud('1-not-a-key', base_url=base_url, max_retries=0)
    refused(stranger.account.me, 401, 'ACCESS_DENIED')


# ---- applications and their reads


@step('apps.get: the application by id')
def _():
    app = typed(owner.apps.get(app_id), t.App, 'apps.get')
    assert app['id'] == app_id and app['language'] and app['created_at'], app


@step('apps.get of an unknown id is 404 APP_NOT_FOUND')
def _():
    refused(lambda: owner.apps.get('0' * 32), 404, 'APP_NOT_FOUND')


@step('apps.network.analytics: the traffic of a window')
def _():
    analytics = owner.apps.network.analytics(app_id, '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z')
    assert analytics is None or isinstance(analytics.get('visits', []), list), analytics


@step('apps.deploys.list: deployments, each a list of events')
def _():
    deployments = owner.apps.deploys.list(app_id)
    assert isinstance(deployments, list)
    for events in deployments:
        typed(events, t.DeployEvent, 'apps.deploys.list events')
        assert all(event['id'] and event['state'] and event['date'] for event in events), events


@step('apps.snapshots.create: a download URL and its key')
def _():
    created = owner.apps.snapshots.create(app_id)
    assert created['pending'] is False and created['url'] and created['key'], created
    made['snapshot_url'] = created['url']


@step('download_snapshot: the archive behind the URL, a zip')
def _():
    import tempfile

    with tempfile.TemporaryDirectory() as directory:
        written = owner.download_snapshot(made['snapshot_url'], os.path.join(directory, 'app.zip'))
        with open(written, 'rb') as archive:
            assert archive.read(4) == b'PK\x03\x04', 'not a zip archive'


@step('apps.files.move: a file renamed, then moved back')
def _():
    moved = app_file + '.moved'
    owner.apps.files.move(app_id, app_file, moved)
    owner.apps.files.move(app_id, moved, app_file)


# ---- databases, with credentials and snapshots


@step('databases.create: a redis database, its password and connection URL shown once')
def _():
    created = typed(
        owner.databases.create('pysdk', type='redis', version='7.4.5', memory=512), t.DatabaseCreated, 'databases.create'
    )
    made['database'] = created['id']
    assert created['password'] and created['connection_url'], sorted(created)
    assert created['name'] == 'pysdk' and created['memory'] == 512, created


@step('databases.create refuses a name the contract refuses: 400 INVALID_NAME')
def _():
    refused(lambda: owner.databases.create('py-sdk', type='redis', version='7.4.5', memory=512), 400, 'INVALID_NAME')


@step('databases.get: the database, without credentials')
def _():
    database = typed(owner.databases.get(made['database']), t.Database, 'databases.get')
    assert database['name'] == 'pysdk' and database['ram'] == 512 and database['type'] == 'redis', database
    assert 'password' not in database


@step('databases.update: renamed and resized')
def _():
    owner.databases.update(made['database'], name='pysdk2', ram=1024)
    database = owner.databases.get(made['database'])
    assert (database['name'], database['ram']) == ('pysdk2', 1024), database


@step('databases.metrics: points of date, cpu, ram and net')
def _():
    points = typed(owner.databases.metrics(made['database']), t.MetricPoint, 'databases.metrics')
    assert all({'date', 'cpu', 'ram', 'net'} <= set(point) for point in points), points[:1]


@step('databases.certificate: the certificate, base64')
def _():
    import base64

    assert base64.b64decode(owner.databases.certificate(made['database']))


@step('databases.reset_credentials: a new password')
def _():
    assert owner.databases.reset_credentials(made['database'], 'password')


@step('databases.snapshots.list and restore of a seeded snapshot')
def _():
    entries = typed(owner.databases.snapshots.list(snapshot_database), t.Snapshot, 'databases.snapshots.list')
    assert any(snapshot_version in entry['key'] for entry in entries), entries
    owner.databases.snapshots.restore(snapshot_database, snapshot_database, snapshot_version)


@step('databases.delete, then get is 404 DATABASE_NOT_FOUND')
def _():
    owner.databases.delete(made['database'])
    refused(lambda: owner.databases.get(made['database']), 404, 'DATABASE_NOT_FOUND')


# ---- workspaces and members


@step('workspaces.create: id and name; list and get show it')
def _():
    created = typed(owner.workspaces.create('py_sdk_team'), t.WorkspaceCreated, 'workspaces.create')
    made['workspace'] = created['id']
    assert created['name'] == 'py_sdk_team', created
    assert any(ws['id'] == created['id'] for ws in owner.workspaces.list())
    workspace = typed(owner.workspaces.get(created['id']), t.Workspace, 'workspaces.get')
    typed(workspace['members'], t.WorkspaceMember, 'workspaces.get members')
    assert workspace['owner'] == env['OWNER_ID'] and workspace['createdAt'], workspace


@step('workspaces.create refuses a name the contract refuses: 400 INVALID_NAME')
def _():
    refused(lambda: owner.workspaces.create('py-sdk-team'), 400, 'INVALID_NAME')


@step('workspaces.apps.add and remove')
def _():
    owner.workspaces.apps.add(made['workspace'], app_id)
    assert [a['id'] for a in owner.workspaces.get(made['workspace'])['applications']] == [app_id]
    owner.workspaces.apps.remove(made['workspace'], app_id)
    assert owner.workspaces.get(made['workspace'])['applications'] == []


@step('members: invite code, add, update, remove')
def _():
    code = invitee.workspaces.members.invite_code()
    owner.workspaces.members.add(made['workspace'], code, 'view')
    members = owner.workspaces.get(made['workspace'])['members']
    joined = next(m for m in members if m['id'] == env['INVITEE_ID'])
    assert joined['group'] == 'view' and joined['joinedAt'], joined
    owner.workspaces.members.update(made['workspace'], env['INVITEE_ID'], 'maintain')
    owner.workspaces.members.remove(made['workspace'], env['INVITEE_ID'])
    assert all(m['id'] != env['INVITEE_ID'] for m in owner.workspaces.get(made['workspace'])['members'])


@step('a spent invite code is refused: 400 INVALID_CODE')
def _():
    code = invitee.workspaces.members.invite_code()
    owner.workspaces.members.add(made['workspace'], code, 'view')
    refused(lambda: owner.workspaces.members.add(made['workspace'], code, 'view'), 400, 'INVALID_CODE')


@step('workspaces.leave by the member; the owner cannot leave: CANNOT_LEAVE_OWNER')
def _():
    invitee.workspaces.leave(made['workspace'])
    assert all(m['id'] != env['INVITEE_ID'] for m in owner.workspaces.get(made['workspace'])['members'])
    try:
        owner.workspaces.leave(made['workspace'])
    except SquareCloudAPIError as error:
        assert error.code == 'CANNOT_LEAVE_OWNER', error
    else:
        raise AssertionError('the owner left')


@step('workspaces.delete, then get is 404 WORKSPACE_NOT_FOUND')
def _():
    owner.workspaces.delete(made['workspace'])
    refused(lambda: owner.workspaces.get(made['workspace']), 404, 'WORKSPACE_NOT_FOUND')


owner.close()
invitee.close()
json.dump({'version': squarecloud.__version__, 'steps': steps, 'lacking': lacking}, sys.stdout)
