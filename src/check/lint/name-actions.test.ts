import { describe, expect, it } from 'vitest';
import { nameActions } from './name-actions.js';
import { splitNameWords } from './split-name-words.js';

describe('splitNameWords', () => {
  it.each([
    ['deleteFile', ['delete', 'file']],
    ['file_delete', ['file', 'delete']],
    ['file.delete', ['file', 'delete']],
    ['file-delete', ['file', 'delete']],
    ['fetchURL', ['fetch', 'url']],
    ['HTTPRequest', ['http', 'request']],
    ['getV2Items', ['get', 'v2', 'items']],
    ['rm', ['rm']],
    ['  __odd--name..', ['odd', 'name']],
    ['', []],
  ])('splits %j into %j', (name, words) => {
    expect(splitNameWords(name)).toEqual(words);
  });
});

describe('nameActions', () => {
  it.each([
    ['deleteFile', ['delete']],
    ['file_delete', ['delete']],
    ['rm', ['rm']],
    ['rmDir', ['rm']],
    ['purge_cache', ['purge']],
    ['kill-process', ['kill']],
    ['DropTable', ['drop']],
  ])('finds the destructive verb of %s', (name, verbs) => {
    expect(nameActions(name).destructive).toEqual(verbs);
  });

  it.each([
    ['download_file', 'own'],
    ['listen', 'list'],
    ['reset_password', 'set'],
    ['get_address', 'add'],
    ['remove_item', 'move'],
    ['firmware_info', 'rm'],
    ['get_settings', 'set'],
    ['read_runbook', 'run'],
    ['get_status', 'stat'],
    ['postgres_query', 'post'],
    ['dropdown_options', 'drop'],
  ])('does not read %s as containing %s', (name, word) => {
    const actions = nameActions(name);
    expect(actions.verbs).not.toContain(word);
    expect([...actions.destructive, ...actions.write, ...actions.read]).not.toContain(word);
  });

  it('takes the first known verb, and verbs joined by and/or/then', () => {
    expect(nameActions('get_workflow_run').verbs).toEqual(['get']);
    expect(nameActions('list_delete_markers').destructive).toEqual([]);
    expect(nameActions('search_and_replace').verbs).toEqual(['search', 'replace']);
    expect(nameActions('get_or_create_user').verbs).toEqual(['get', 'create']);
    expect(nameActions('repository').verbs).toEqual([]);
  });

  it('sees the network in verbs and nouns, not in nouns a local verb works on', () => {
    expect(nameActions('web_fetch').openWorld).toEqual(['fetch', 'web']);
    expect(nameActions('send_message').openWorld).toEqual(['send']);
    expect(nameActions('get_url_title').openWorld).toEqual(['url']);
    expect(nameActions('httpGet').openWorld).toEqual(['http']);
    expect(nameActions('parse_url').openWorld).toEqual([]);
    expect(nameActions('validateEmail').openWorld).toEqual([]);
    expect(nameActions('get_post').openWorld).toEqual([]);
    expect(nameActions('grep_search').openWorld).toEqual([]);
  });
});
