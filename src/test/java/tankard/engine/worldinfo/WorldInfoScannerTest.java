package tankard.engine.worldinfo;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tankard.engine.macro.TestMacros;
import tankard.engine.prompt.Action;
import tankard.engine.prompt.ExtensionPrompts;
import tankard.engine.prompt.WorldInfo;
import tankard.json.JsJson;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WorldInfoScannerTest {
    /** An entry as test JSON with single quotes; position 0 (before) unless it names one, as ST's editor saves. */
    private static String e(String json) {
        String entry = json.replace('\'', '"');
        return entry.contains("\"position\"") ? entry : entry.replaceFirst("^\\{", "{\"position\":0,");
    }

    private static ScanFixture lore(String... entries) {
        return new ScanFixture().globalBook("Lore", entries);
    }

    @Test
    void keywordWithinScanDepthActivates() {
        WorldInfo result = lore(e("{'uid':0,'key':['dragon'],'content':'Dragons breathe fire.'}"))
                .chat("Alice|I saw a dragon", "Bramble|Really?").scan();
        assertEquals("Dragons breathe fire.", result.before());
    }

    @Test
    void keywordOutsideScanDepthDoesNotActivate() {
        ScanFixture fixture = lore(e("{'uid':0,'key':['dragon'],'content':'Dragons breathe fire.'}"))
                .chat("Alice|I saw a dragon", "Bramble|Really?", "Alice|Yes");
        assertEquals("", fixture.scan().before());
        fixture.setting("world_info_depth", 3);
        assertEquals("Dragons breathe fire.", fixture.scan().before());
    }

    /**
     * ST's depthBuffer holds the messages down to the deepest non-empty one, an empty message a hole: the text
     * scanned ends in holes only when a non-empty message lies deeper than the scan depth.
     */
    @Test
    void emptyMessagesAreHolesInTheScannedTextUpToTheDeepestMessage() {
        ScanFixture fixture = lore(e("{'uid':0,'key':['/^\\\\x01A\\\\n\\\\x01\\\\n\\\\x01$/'],'content':'holes at the end'}"),
                e("{'uid':1,'key':['/^\\\\x01A$/'],'content':'no holes'}"))
                .setting("world_info_include_names", false).setting("world_info_depth", 3);
        fixture.chat("x|", "x|", "x|A");
        assertEquals("no holes", fixture.scan().before(), "nothing deeper: the holes are not in the buffer");
        fixture.chat("x|D", "x|", "x|", "x|A"); // oldest first: D lies at depth 6, past the scan depth of 3
        fixture.chat("x|", "x|", "x|A");
        assertEquals("holes at the end", fixture.scan().before());
    }

    @Test
    void entryScanDepthOverridesTheGlobalDepth() {
        WorldInfo result = lore(
                e("{'uid':0,'key':['dragon'],'content':'deep','scanDepth':3}"),
                e("{'uid':1,'key':['dragon'],'content':'shallow','scanDepth':1}"))
                .chat("Alice|I saw a dragon", "Bramble|Really?", "Alice|Yes").scan();
        assertEquals("deep", result.before());
    }

    @Test
    void keysMatchCaseInsensitivelyUnlessTheEntryOrSettingsSayOtherwise() {
        ScanFixture fixture = lore(
                e("{'uid':0,'key':['dragon'],'content':'insensitive'}"),
                e("{'uid':1,'key':['dragon'],'content':'sensitive','caseSensitive':true}"))
                .chat("Alice|A DRAGON!");
        assertEquals("insensitive", fixture.scan().before());
        fixture.setting("world_info_case_sensitive", true);
        assertEquals("", fixture.scan().before());
    }

    @Test
    void wholeWordsDoNotMatchInsideAWordButMultiWordKeysMatchAnywhere() {
        ScanFixture fixture = lore(
                e("{'uid':0,'key':['cat'],'content':'cat entry'}"),
                e("{'uid':1,'key':['nate fish'],'content':'two words'}"))
                .chat("Alice|Let us concatenate fish");
        fixture.setting("world_info_match_whole_words", true);
        assertEquals("two words", fixture.scan().before());
        fixture.setting("world_info_match_whole_words", false);
        // Equal orders: the later entry comes first, as ST's unshift leaves them.
        assertEquals("two words\ncat entry", fixture.scan().before());
    }

    @Test
    void wholeWordsMatchBetweenPunctuation() {
        WorldInfo result = lore(e("{'uid':0,'key':['cat'],'content':'cat entry','matchWholeWords':true}"))
                .chat("Alice|(cat)").scan();
        assertEquals("cat entry", result.before());
    }

    @Test
    void regexKeysMatchWithTheirOwnFlags() {
        WorldInfo result = lore(
                e("{'uid':0,'key':['/drag(o|oo)ns?/i'],'content':'regex i','order':1}"),
                e("{'uid':1,'key':['/Dragon/'],'content':'regex case','order':2}"),
                e("{'uid':2,'key':['/^Alice: A/'],'content':'anchored','order':3}"),
                e("{'uid':3,'key':['/\\nAlice: A/'],'content':'after a newline','order':4}"),
                e("{'uid':4,'key':['/unclosed(/'],'content':'invalid regex is text','order':5}"))
                .chat("Bramble|hello", "Alice|A DRAGOONS tale /unclosed(/").scan();
        // Every message in the scanned text starts with ST's \u0001 marker, so ^ never meets a name.
        assertEquals("regex i\ninvalid regex is text", result.before());
    }

    @ParameterizedTest
    @CsvSource({
            // logic, chat, activates
            "0, dragon knight, true",   // AND ANY: one secondary key
            "0, dragon, false",
            "1, dragon knight castle, false", // NOT ALL: all secondary keys present
            "1, dragon knight, true",
            "2, dragon, true",          // NOT ANY: no secondary key
            "2, dragon castle, false",
            "3, dragon knight castle, true", // AND ALL
            "3, dragon knight, false",
    })
    void selectiveLogic(int logic, String message, boolean activates) {
        WorldInfo result = lore(e("{'uid':0,'key':['dragon'],'keysecondary':['knight','castle'],'selective':true,"
                + "'selectiveLogic':" + logic + ",'content':'hit'}"))
                .chat("Alice|" + message).scan();
        assertEquals(activates ? "hit" : "", result.before());
    }

    @Test
    void secondaryKeysAreIgnoredWhenTheEntryIsNotSelective() {
        WorldInfo result = lore(e("{'uid':0,'key':['dragon'],'keysecondary':['knight'],'selective':false,'content':'hit'}"))
                .chat("Alice|dragon").scan();
        assertEquals("hit", result.before());
    }

    @Test
    void entriesWithoutAPositionActivateButGoNowhere() {
        WorldInfo result = lore(e("{'uid':0,'key':['x'],'content':'placed'}"),
                "{\"uid\":1,\"key\":[\"x\"],\"content\":\"unplaced\"}").chat("Alice|x").scan();
        assertEquals("placed", result.before());
    }

    @Test
    void constantEntriesActivateWithoutKeysAndDisabledOnesNever() {
        WorldInfo result = lore(
                e("{'uid':0,'key':[],'constant':true,'content':'always'}"),
                e("{'uid':1,'key':['dragon'],'constant':true,'disable':true,'content':'never'}"))
                .chat("Alice|dragon").scan();
        assertEquals("always", result.before());
    }

    @Test
    void recursionActivatesEntriesNamedByActivatedContent() {
        ScanFixture fixture = lore(
                e("{'uid':0,'key':['dragon'],'content':'Dragons guard the castle.','order':2}"),
                e("{'uid':1,'key':['castle'],'content':'The castle is old.','order':1}"));
        fixture.chat("Alice|a dragon");
        assertEquals("Dragons guard the castle.", fixture.scan().before());
        fixture.setting("world_info_recursive", true);
        assertEquals("The castle is old.\nDragons guard the castle.", fixture.scan().before());
    }

    @Test
    void preventRecursionKeepsContentOutOfTheRecursionBuffer() {
        WorldInfo result = lore(
                e("{'uid':0,'key':['dragon'],'content':'Dragons guard the castle.','preventRecursion':true}"),
                e("{'uid':1,'key':['castle'],'content':'The castle is old.'}"))
                .setting("world_info_recursive", true).chat("Alice|a dragon").scan();
        assertEquals("Dragons guard the castle.", result.before());
    }

    @Test
    void excludeRecursionEntriesOnlyActivateFromTheChat() {
        ScanFixture fixture = lore(
                e("{'uid':0,'key':['dragon'],'content':'Dragons guard the castle.','order':2}"),
                e("{'uid':1,'key':['castle'],'content':'The castle is old.','excludeRecursion':true,'order':1}"))
                .setting("world_info_recursive", true).chat("Alice|a dragon");
        assertEquals("Dragons guard the castle.", fixture.scan().before());
        fixture.chat.clear();
        fixture.chat("Alice|a dragon near the castle");
        assertEquals("The castle is old.\nDragons guard the castle.", fixture.scan().before());
    }

    @Test
    void delayUntilRecursionEntriesWaitForARecursionStep() {
        ScanFixture fixture = lore(
                e("{'uid':0,'key':['dragon'],'content':'Dragons guard the castle.','order':3}"),
                e("{'uid':1,'key':['dragon'],'content':'delayed','delayUntilRecursion':true,'order':2}"))
                .chat("Alice|a dragon");
        assertEquals("Dragons guard the castle.", fixture.scan().before());
        fixture.setting("world_info_recursive", true);
        assertEquals("delayed\nDragons guard the castle.", fixture.scan().before());
        fixture.setting("world_info_max_recursion_steps", 1);
        assertEquals("Dragons guard the castle.", fixture.scan().before());
    }

    @Test
    void aSecondDelayLevelOpensARecursiveStepEvenWithoutRecursion() {
        WorldInfo result = lore(
                e("{'uid':0,'key':['dragon'],'content':'Dragons guard the castle.','order':3}"),
                e("{'uid':1,'key':['dragon'],'content':'level one','delayUntilRecursion':1,'order':2}"),
                e("{'uid':2,'key':['castle'],'content':'level two','delayUntilRecursion':2,'order':1}"))
                .chat("Alice|a dragon").scan();
        assertEquals("level two\nlevel one\nDragons guard the castle.", result.before());
    }

    @Test
    void maxRecursionStepsStopsTheChain() {
        ScanFixture fixture = lore(
                e("{'uid':0,'key':['one'],'content':'two','order':3}"),
                e("{'uid':1,'key':['two'],'content':'three','order':2}"),
                e("{'uid':2,'key':['three'],'content':'end','order':1}"))
                .setting("world_info_recursive", true).chat("Alice|one");
        assertEquals("end\nthree\ntwo", fixture.scan().before());
        fixture.setting("world_info_max_recursion_steps", 2);
        assertEquals("three\ntwo", fixture.scan().before());
    }

    @Test
    void beforeAndAfterEntriesAreJoinedLowestOrderFirst() {
        WorldInfo result = lore(
                e("{'uid':0,'key':['x'],'content':'b30','order':30,'position':0}"),
                e("{'uid':1,'key':['x'],'content':'b10','order':10,'position':0}"),
                e("{'uid':2,'key':['x'],'content':'a5','order':5,'position':1}"),
                e("{'uid':3,'key':['x'],'content':'b20','order':20,'position':0}"),
                e("{'uid':4,'key':['x'],'content':'a50','order':50,'position':1}"))
                .chat("Alice|x").scan();
        assertEquals("b10\nb20\nb30", result.before());
        assertEquals("a5\na50", result.after());
    }

    @Test
    void depthEntriesAreGroupedByDepthAndRole() {
        WorldInfo result = lore(
                e("{'uid':0,'key':['x'],'content':'sys2 high','order':30,'position':4,'depth':2,'role':0}"),
                e("{'uid':1,'key':['x'],'content':'user2','order':20,'position':4,'depth':2,'role':1}"),
                e("{'uid':2,'key':['x'],'content':'sys2 low','order':10,'position':4,'depth':2,'role':0}"),
                e("{'uid':3,'key':['x'],'content':'sys0','order':5,'position':4,'depth':0}"))
                .chat("Alice|x").scan();
        assertEquals(List.of(
                new WorldInfo.DepthGroup(2, ExtensionPrompts.SYSTEM, List.of("sys2 low", "sys2 high")),
                new WorldInfo.DepthGroup(2, ExtensionPrompts.USER, List.of("user2")),
                new WorldInfo.DepthGroup(0, ExtensionPrompts.SYSTEM, List.of("sys0"))), result.depth());
    }

    @Test
    void exampleEntriesGoBeforeOrAfterTheExamples() {
        WorldInfo result = lore(
                e("{'uid':0,'key':['x'],'content':'top','order':2,'position':5}"),
                e("{'uid':1,'key':['x'],'content':'bottom','order':1,'position':6}"))
                .chat("Alice|x").scan();
        assertEquals(List.of(new WorldInfo.Example(WorldInfo.Example.AFTER, "bottom"),
                new WorldInfo.Example(WorldInfo.Example.BEFORE, "top")), result.examples());
    }

    @Test
    void outletEntriesGoToTheirNamedOutletHighestOrderFirst() {
        WorldInfo result = lore(
                e("{'uid':0,'key':['x'],'content':'low','order':1,'position':7,'outletName':'sidebar'}"),
                e("{'uid':1,'key':['x'],'content':'high','order':9,'position':7,'outletName':'sidebar'}"),
                e("{'uid':2,'key':['x'],'content':'unnamed','order':5,'position':7}"))
                .chat("Alice|x").scan();
        assertEquals(Map.of("sidebar", List.of("high", "low")), result.outlets());
    }

    @Test
    void authorsNoteGetsTheTopAndBottomEntriesWhenItIsActive() {
        ScanFixture fixture = lore(
                e("{'uid':0,'key':['x'],'content':'top','position':2}"),
                e("{'uid':1,'key':['x'],'content':'bottom','position':3}"))
                .chat("Alice|x");
        fixture.prompts.set(WorldInfoScanner.AUTHORS_NOTE, "The note.", ExtensionPrompts.IN_CHAT, 4, true, 1);
        fixture.authorsNoteActive = true;
        fixture.scan();
        assertEquals(new ExtensionPrompts.Prompt("top\nThe note.\nbottom", ExtensionPrompts.IN_CHAT, 4, true, 1),
                fixture.prompts.get(WorldInfoScanner.AUTHORS_NOTE));
    }

    @Test
    void authorsNoteIsLeftAloneWhenItIsNotActive() {
        ScanFixture fixture = lore(e("{'uid':0,'key':['x'],'content':'top','position':2}")).chat("Alice|x");
        fixture.prompts.set(WorldInfoScanner.AUTHORS_NOTE, "", ExtensionPrompts.IN_CHAT, 4, false, 0);
        fixture.scan();
        assertEquals("", fixture.prompts.get(WorldInfoScanner.AUTHORS_NOTE).value());
    }

    @Test
    void emptyAuthorsNoteWithOnlyBottomEntriesLosesTheLeadingNewlines() {
        ScanFixture fixture = lore(e("{'uid':0,'key':['x'],'content':'bottom','position':3}")).chat("Alice|x");
        fixture.prompts.set(WorldInfoScanner.AUTHORS_NOTE, "", ExtensionPrompts.IN_PROMPT, 4, false, 0);
        fixture.authorsNoteActive = true;
        fixture.scan();
        // "\n\nbottom" with one leading newline trimmed, as ST's replace(/(^\n)|(\n$)/g, '')
        assertEquals("\nbottom", fixture.prompts.get(WorldInfoScanner.AUTHORS_NOTE).value());
    }

    @Test
    void budgetCutsTheLowestOrderEntries() {
        // 10% of 100 tokens: 10 tokens; each entry is 4 words.
        ScanFixture fixture = lore(
                e("{'uid':0,'key':['x'],'content':'one two three four','order':300}"),
                e("{'uid':1,'key':['x'],'content':'five six seven eight','order':100}"),
                e("{'uid':2,'key':['x'],'content':'nine ten eleven twelve','order':200}"),
                e("{'uid':3,'key':['x'],'content':'free of the budget','order':50,'ignoreBudget':true}"))
                .setting("world_info_budget", 10).chat("Alice|x");
        fixture.maxContext = 100;
        assertEquals("free of the budget\nnine ten eleven twelve\none two three four", fixture.scan().before());
        fixture.setting("world_info_budget_cap", 5);
        assertEquals("free of the budget\none two three four", fixture.scan().before());
    }

    @Test
    void probabilityRollsUseTheGivenRandom() {
        ScanFixture fixture = lore(e("{'uid':0,'key':['x'],'content':'lucky','useProbability':true,'probability':40}"))
                .chat("Alice|x");
        fixture.random = ScanFixture.fixedRandom(0.41);
        assertEquals("", fixture.scan().before());
        fixture.random = ScanFixture.fixedRandom(0.39);
        assertEquals("lucky", fixture.scan().before());
    }

    @Test
    void inclusionGroupKeepsTheOverrideEntryOrTheWeightedRollWinner() {
        ScanFixture fixture = lore(
                e("{'uid':0,'key':['x'],'content':'first','group':'g','groupWeight':25,'order':3}"),
                e("{'uid':1,'key':['x'],'content':'second','group':'g','groupWeight':75,'order':2}"));
        fixture.chat("Alice|x");
        fixture.random = ScanFixture.fixedRandom(0.2);
        assertEquals("first", fixture.scan().before());
        fixture.random = ScanFixture.fixedRandom(0.3);
        assertEquals("second", fixture.scan().before());

        ScanFixture prio = lore(
                e("{'uid':0,'key':['x'],'content':'first','group':'g','order':3}"),
                e("{'uid':1,'key':['x'],'content':'prio','group':'g','groupOverride':true,'order':2}"));
        assertEquals("prio", prio.chat("Alice|x").scan().before());
    }

    @Test
    void groupScoringKeepsTheEntryMatchingMostKeys() {
        WorldInfo result = lore(
                e("{'uid':0,'key':['x'],'content':'one key','group':'g','order':3}"),
                e("{'uid':1,'key':['x','y'],'content':'two keys','group':'g','order':2}"))
                .setting("world_info_use_group_scoring", true).chat("Alice|x y").scan();
        assertEquals("two keys", result.before());
    }

    @Test
    void cardFieldsAndScannedExtensionPromptsAreMatchedToo() {
        ScanFixture fixture = lore(
                e("{'uid':0,'key':['tower'],'content':'from description','matchCharacterDescription':true}"),
                e("{'uid':1,'key':['tower'],'content':'description not asked'}"),
                e("{'uid':2,'key':['moat'],'content':'from a prompt'}"),
                e("{'uid':3,'key':['bridge'],'content':'from an unscanned prompt'}"))
                .chat("Alice|hi");
        fixture.card = TestMacros.card("Lives in a tower", "", "", "");
        fixture.prompts.set("depth_prompt", "A moat, {{user}}", ExtensionPrompts.IN_CHAT, 4, true, 0);
        fixture.prompts.set("other", "A bridge", ExtensionPrompts.IN_CHAT, 4, false, 0);
        assertEquals("from a prompt\nfrom description", fixture.scan().before());
    }

    @Test
    void namesAreMatchedOnlyWhenIncluded() {
        ScanFixture fixture = lore(e("{'uid':0,'key':['bramble:'],'content':'named'}")).chat("Bramble|hello");
        assertEquals("named", fixture.scan().before());
        fixture.setting("world_info_include_names", false);
        assertEquals("", fixture.scan().before());
    }

    @Test
    void minActivationsWidensTheScanDepth() {
        ScanFixture fixture = lore(e("{'uid':0,'key':['dragon'],'content':'found'}"))
                .setting("world_info_depth", 1).chat("Alice|dragon", "Bramble|a", "Alice|b");
        assertEquals("", fixture.scan().before());
        fixture.setting("world_info_min_activations", 1);
        assertEquals("found", fixture.scan().before());
        fixture.setting("world_info_min_activations_depth_max", 1);
        assertEquals("", fixture.scan().before());
    }

    @Test
    void triggersLimitEntriesToGenerationTypes() {
        ScanFixture fixture = lore(e("{'uid':0,'key':['x'],'content':'on continue','triggers':['continue']}"))
                .chat("Alice|x");
        assertEquals("", fixture.scan().before());
        fixture.action = Action.CONTINUE;
        assertEquals("on continue", fixture.scan().before());
    }

    @Test
    void characterFilterByFileNameAndTags() {
        ScanFixture fixture = lore(
                e("{'uid':0,'key':['x'],'content':'for bramble','characterFilter':{'isExclude':false,'names':['Bramble'],'tags':[]}}"),
                e("{'uid':1,'key':['x'],'content':'not bramble','characterFilter':{'isExclude':true,'names':['Bramble'],'tags':[]}}"),
                e("{'uid':2,'key':['x'],'content':'tagged','characterFilter':{'isExclude':false,'names':[],'tags':['t1']}}"))
                .chat("Alice|x");
        fixture.character = (ObjectNode) JsJson.parse(e("{'name':'Bramble','avatar':'Bramble.png'}"));
        assertEquals("for bramble", fixture.scan().before());
        fixture.settings.putObject("tag_map").putArray("Bramble.png").add("t1");
        assertEquals("tagged\nfor bramble", fixture.scan().before());
    }

    @Test
    void macrosAreSubstitutedInKeysAndContent() {
        WorldInfo result = lore(e("{'uid':0,'key':['{{user}}'],'content':'{{char}} knows {{user}}'}"))
                .chat("Bramble|hello Alice").scan();
        assertEquals("Bramble knows Alice", result.before());
    }

    @Test
    void decoratorsForceOrBlockActivation() {
        WorldInfo result = lore(
                e("{'uid':0,'key':['nothing'],'content':'@@activate\\nforced'}"),
                e("{'uid':1,'key':['x'],'content':'@@dont_activate\\nblocked','constant':true}"))
                .chat("Alice|x").scan();
        assertEquals("forced", result.before());
    }

    @Test
    void stickyEntriesStayActiveAndCooldownsSuppress() {
        String sticky = e("{'uid':0,'key':['never'],'content':'sticky','sticky':3}");
        String cooling = e("{'uid':1,'key':['x'],'content':'cooling','cooldown':3}");
        String delayed = e("{'uid':2,'key':['x'],'content':'delayed','delay':5}");
        ScanFixture fixture = lore(sticky, cooling, delayed).chat("Alice|x", "Bramble|y");
        List<WorldInfoEntry> entries = WorldInfoBooks.sorted(WorldInfoSettings.read(fixture.settings), fixture.settings,
                null, null, fixture.metadata, fixture.books::get);
        var timed = fixture.metadata.putObject("timedWorldInfo");
        timed.putObject("sticky").putObject("Lore.0").put("hash", entries.get(0).hash).put("start", 1).put("end", 4).put("protected", false);
        timed.putObject("cooldown").putObject("Lore.1").put("hash", entries.get(1).hash).put("start", 1).put("end", 4).put("protected", false);
        assertEquals("sticky", fixture.scan().before());
    }

    @Test
    void anEndedStickyEffectStartsTheCooldownAndAnEffectFromThisChatLengthIsDropped() {
        ScanFixture fixture = lore(
                e("{'uid':0,'key':['x'],'content':'ended sticky','sticky':2,'cooldown':3}"),
                e("{'uid':1,'key':['never'],'content':'not advanced','sticky':2}"))
                .chat("Alice|x", "Bramble|y");
        List<WorldInfoEntry> entries = WorldInfoBooks.sorted(WorldInfoSettings.read(fixture.settings), fixture.settings,
                null, null, fixture.metadata, fixture.books::get);
        var sticky = fixture.metadata.putObject("timedWorldInfo").putObject("sticky");
        sticky.putObject("Lore.0").put("hash", entries.get(0).hash).put("start", 0).put("end", 2).put("protected", false);
        sticky.putObject("Lore.1").put("hash", entries.get(1).hash).put("start", 2).put("end", 4).put("protected", false);
        assertEquals("", fixture.scan().before());
        ((ObjectNode) sticky.get("Lore.1")).put("protected", true);
        assertEquals("not advanced", fixture.scan().before());
    }
}
