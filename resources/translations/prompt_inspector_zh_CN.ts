<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
  <context>
    <name>AnatomyModel</name>
    <message>
      <source>position</source>
      <translation>位置</translation>
    </message>
    <message>
      <source>marker</source>
      <translation>标记</translation>
    </message>
    <message>
      <source>structure</source>
      <translation>结构</translation>
    </message>
    <message>
      <source>sentinel</source>
      <translation>哨兵</translation>
    </message>
    <message>
      <source>guess</source>
      <translation>推测</translation>
    </message>
    <message>
      <source>── cache breakpoint ──</source>
      <translation>── 缓存断点 ──</translation>
    </message>
    <message>
      <source>Part</source>
      <translation>部分</translation>
    </message>
    <message>
      <source>Role</source>
      <translation>角色</translation>
    </message>
    <message>
      <source>Recognised by</source>
      <translation>识别依据</translation>
    </message>
    <message>
      <source>Tokens</source>
      <translation>Token</translation>
    </message>
    <message>
      <source>Estimate</source>
      <translation>估算</translation>
    </message>
    <message>
      <source>Share</source>
      <translation>占比</translation>
    </message>
    <message>
      <source>The part of the request, as Covel assembled it</source>
      <translation>请求的组成部分，按 Covel 的组装方式划分</translation>
    </message>
    <message>
      <source>Message role</source>
      <translation>消息角色</translation>
    </message>
    <message>
      <source>How the part was recognised: sentinel, marker, position, structure or guess</source>
      <translation>该部分的识别方式：哨兵、标记、位置、结构或推测</translation>
    </message>
    <message>
      <source>Exact tokens with the model's tokenizer (or its closest proxy)</source>
      <translation>用模型的分词器（或最接近的替代）计算的精确 token 数</translation>
    </message>
    <message>
      <source>Covel's own estimate (characters / 4, CJK characters one each)</source>
      <translation>Covel 自己的估算（字符数 / 4，每个中日韩字符计 1）</translation>
    </message>
    <message>
      <source>Share of the whole request's exact tokens</source>
      <translation>占整个请求精确 token 数的比例</translation>
    </message>
    <message>
      <source>The provider caches the request up to this point ({label})</source>
      <translation>服务商会缓存到此处为止的请求（{label}）</translation>
    </message>
  </context>
  <context>
    <name>App</name>
    <message>
      <source>Preparing the demo database…</source>
      <translation>正在准备演示数据库…</translation>
    </message>
    <message>
      <source>Cannot open the demo</source>
      <translation>无法打开演示数据库</translation>
    </message>
  </context>
  <context>
    <name>CacheDock</name>
    <message>
      <source>Cache Analysis</source>
      <translation>缓存分析</translation>
    </message>
    <message>
      <source>&amp;Cache Analysis</source>
      <translation>缓存分析(&amp;C)</translation>
    </message>
    <message>
      <source>Show where each request's cached prefix ends, per runtime and turn</source>
      <translation>按运行时和回合显示每个请求的缓存前缀在哪里结束</translation>
    </message>
  </context>
  <context>
    <name>CacheView</name>
    <message>
      <source>(no runtime)</source>
      <translation>（无运行时）</translation>
    </message>
    <message>
      <source>first request of the turn</source>
      <translation>回合的首个请求</translation>
    </message>
    <message>
      <source>{n} h</source>
      <translation>{n} 小时</translation>
    </message>
    <message>
      <source>tool-loop step {step}</source>
      <translation>工具循环第 {step} 步</translation>
    </message>
    <message>
      <source>Cell colour: share of the request's tokens in the prefix shared with the earlier request (grey: the runtime's first request)</source>
      <translation>单元格颜色：请求中与上一个请求共享前缀的令牌占比（灰色：该运行时的首个请求）</translation>
    </message>
    <message>
      <source>Tokens over turns</source>
      <translation>各回合的令牌数</translation>
    </message>
    <message>
      <source>Total: the request's tokens; Shared: the prefix shared with the earlier request; Predicted/Reported: cached tokens by the provider's rules / as the response recorded them</source>
      <translation>总计：请求的令牌数；共享：与上一个请求共享的前缀；预测/报告：按服务商规则预测的缓存令牌 / 响应记录的缓存令牌</translation>
    </message>
    <message>
      <source>Total</source>
      <translation>总计</translation>
    </message>
    <message>
      <source>Shared</source>
      <translation>共享</translation>
    </message>
    <message>
      <source>Predicted</source>
      <translation>预测</translation>
    </message>
    <message>
      <source>Reported</source>
      <translation>报告</translation>
    </message>
    <message>
      <source>Turn</source>
      <translation>回合</translation>
    </message>
    <message>
      <source>The text around the first difference, as the analysis compared it (40 characters before, 80 after)</source>
      <translation>分析所比较的首个差异处的上下文（前 40 个字符，后 80 个字符）</translation>
    </message>
    <message>
      <source>Open earlier request</source>
      <translation>打开上一个请求</translation>
    </message>
    <message>
      <source>Show the earlier request of this pair in the request view</source>
      <translation>在请求视图中显示这一对中较早的请求</translation>
    </message>
    <message>
      <source>Open request</source>
      <translation>打开请求</translation>
    </message>
    <message>
      <source>Show this request in the request view</source>
      <translation>在请求视图中显示此请求</translation>
    </message>
    <message>
      <source>Go to difference</source>
      <translation>转到差异处</translation>
    </message>
    <message>
      <source>Select the part where the cached prefix ends and mark the character</source>
      <translation>选中缓存前缀结束的部分并标出该字符</translation>
    </message>
    <message>
      <source>Select a cell of the table to compare its request with the earlier one.</source>
      <translation>选择表格中的单元格，将其请求与上一个请求比较。</translation>
    </message>
    <message>
      <source>Tool-loop steps</source>
      <translation>工具循环步骤</translation>
    </message>
    <message>
      <source>Also show a row per tool-loop step and retry, compared with the call before it</source>
      <translation>同时为每个工具循环步骤和重试显示一行，与其前一次调用比较</translation>
    </message>
    <message>
      <source>Session</source>
      <translation>会话</translation>
    </message>
    <message>
      <source>Shared prefix as % of the request's tokens; double-click to open the request</source>
      <translation>共享前缀占请求令牌的百分比；双击打开请求</translation>
    </message>
    <message>
      <source>{n} s</source>
      <translation>{n} 秒</translation>
    </message>
    <message>
      <source>{n} min</source>
      <translation>{n} 分钟</translation>
    </message>
    <message>
      <source>&lt;b&gt;{runtime}&lt;/b&gt; · {kind}</source>
      <translation>&lt;b&gt;{runtime}&lt;/b&gt; · {kind}</translation>
    </message>
    <message>
      <source>Shared prefix: {shared} of {total} tokens ({pct})</source>
      <translation>共享前缀：{total} 个令牌中的 {shared} 个（{pct}）</translation>
    </message>
    <message>
      <source>Cached tokens: predicted {predicted}, reported {reported}</source>
      <translation>缓存令牌：预测 {predicted}，报告 {reported}</translation>
    </message>
    <message>
      <source>Gap since the earlier request: {gap} (cache lifetime {ttl})</source>
      <translation>距上一个请求：{gap}（缓存有效期 {ttl}）</translation>
    </message>
    <message>
      <source>Reason: &lt;b&gt;{reason}&lt;/b&gt; — {detail}</source>
      <translation>原因：&lt;b&gt;{reason}&lt;/b&gt; — {detail}</translation>
    </message>
    <message>
      <source>First difference: {part} at character {offset}</source>
      <translation>首个差异：{part}，第 {offset} 个字符</translation>
    </message>
    <message>
      <source>tool-loop step {step}, attempt {attempt}</source>
      <translation>工具循环第 {step} 步，第 {attempt} 次尝试</translation>
    </message>
    <message>
      <source>&lt;b&gt;{runtime}&lt;/b&gt; · {kind} · {reason}</source>
      <translation>&lt;b&gt;{runtime}&lt;/b&gt; · {kind} · {reason}</translation>
    </message>
    <message>
      <source>shared {shared} of {total} tokens ({pct}) · cached: predicted {predicted}, reported {reported} · gap {gap} (lifetime {ttl})</source>
      <translation>共享 {total} 个令牌中的 {shared} 个（{pct}）· 缓存：预测 {predicted}，报告 {reported} · 间隔 {gap}（有效期 {ttl}）</translation>
    </message>
    <message>
      <source>First difference: &lt;b&gt;{part}&lt;/b&gt; at character {offset} — {detail}</source>
      <translation>首个差异：&lt;b&gt;{part}&lt;/b&gt;，第 {offset} 个字符 — {detail}</translation>
    </message>
    <message>
      <source>Turn-volatile text in the system prompt</source>
      <translation>系统提示词中含每回合变化的文本</translation>
    </message>
    <message>
      <source>Too many cache breakpoints</source>
      <translation>缓存断点过多</translation>
    </message>
    <message>
      <source>Breakpoint on volatile content</source>
      <translation>断点位于易变内容上</translation>
    </message>
    <message>
      <source>Data blocks last</source>
      <translation>数据块位于末尾</translation>
    </message>
    <message>
      <source>Sliding history window</source>
      <translation>滑动的历史窗口</translation>
    </message>
    <message>
      <source>Moving history insertion</source>
      <translation>移动的历史插入</translation>
    </message>
    <message>
      <source>Layout check</source>
      <translation>布局检查</translation>
    </message>
    <message>
      <source>Runtime</source>
      <translation>运行时</translation>
    </message>
    <message>
      <source>Part</source>
      <translation>部分</translation>
    </message>
    <message>
      <source>Turns</source>
      <translation>回合</translation>
    </message>
    <message>
      <source>Layout checks run when the analysis of the session is complete.</source>
      <translation>会话分析完成后运行布局检查。</translation>
    </message>
    <message>
      <source>No database is open.</source>
      <translation>没有打开的数据库。</translation>
    </message>
    <message>
      <source>Pick a session to analyse its prompt cache.</source>
      <translation>选择一个会话以分析其提示词缓存。</translation>
    </message>
    <message>
      <source>↳ step {step}</source>
      <translation>↳ 第 {step} 步</translation>
    </message>
    <message>
      <source>Tokens over turns · {runtime}</source>
      <translation>各回合的令牌数 · {runtime}</translation>
    </message>
    <message>
      <source>One of the two requests is no longer in the database.</source>
      <translation>两个请求之一已不在数据库中。</translation>
    </message>
    <message>
      <source>this</source>
      <translation>本次</translation>
    </message>
    <message>
      <source>Aligning the two requests…</source>
      <translation>正在对齐两个请求…</translation>
    </message>
    <message>
      <source>No layout problems found in this session.</source>
      <translation>此会话未发现布局问题。</translation>
    </message>
    <message>
      <source>Select a finding for its explanation; it selects the first turn it concerns.</source>
      <translation>选择一条发现查看说明；会同时选中它涉及的第一个回合。</translation>
    </message>
    <message>
      <source>The analysis failed: {error}</source>
      <translation>分析失败：{error}</translation>
    </message>
    <message>
      <source>{n} requests</source>
      <translation>{n} 个请求</translation>
    </message>
    <message>
      <source>analysing…</source>
      <translation>正在分析…</translation>
    </message>
    <message>
      <source>Turn {number}
{id}</source>
      <translation>第 {number} 回合
{id}</translation>
    </message>
    <message>
      <source>Cannot compare the two requests: {error}</source>
      <translation>无法比较这两个请求：{error}</translation>
    </message>
    <message>
      <source>Earlier: the request ended before this point</source>
      <translation>上次：请求在此之前已结束</translation>
    </message>
    <message>
      <source>earlier</source>
      <translation>上次</translation>
    </message>
    <message>
      <source>(ended here)</source>
      <translation>（在此结束）</translation>
    </message>
    <message>
      <source>Aligned parts: {equal} equal, {changed} changed, {added} added, {removed} removed</source>
      <translation>对齐的部分：{equal} 个相同，{changed} 个已更改，{added} 个新增，{removed} 个移除</translation>
    </message>
    <message>
      <source>e.g. {part}: “{was}” → “{now}”</source>
      <translation>例如 {part}：“{was}” → “{now}”</translation>
    </message>
    <message>
      <source>shared {pct} of {total} tokens</source>
      <translation>{total} 个令牌中共享 {pct}</translation>
    </message>
    <message>
      <source>cached: predicted {predicted}, reported {reported}</source>
      <translation>缓存：预测 {predicted}，报告 {reported}</translation>
    </message>
    <message>
      <source>analysed in {s}</source>
      <translation>分析用时 {s}</translation>
    </message>
    <message>
      <source> · attempt {n}</source>
      <translation> · 第 {n} 次尝试</translation>
    </message>
    <message>
      <source>Earlier: {path}</source>
      <translation>上次：{path}</translation>
    </message>
    <message>
      <source>{n} model requests</source>
      <translation>{n} 个模型请求</translation>
    </message>
    <message>
      <source>This request: {path}</source>
      <translation>本次请求：{path}</translation>
    </message>
    <message>
      <source>This request: {path} (as hashed)</source>
      <translation>本次请求：{path}（按哈希内容）</translation>
    </message>
  </context>
  <context>
    <name>CompareView</name>
    <message>
      <source>equal</source>
      <translation>相同</translation>
    </message>
    <message>
      <source>changed</source>
      <translation>已修改</translation>
    </message>
    <message>
      <source>added</source>
      <translation>新增</translation>
    </message>
    <message>
      <source>removed</source>
      <translation>移除</translation>
    </message>
    <message>
      <source>Section</source>
      <translation>区域</translation>
    </message>
    <message>
      <source>Part</source>
      <translation>部分</translation>
    </message>
    <message>
      <source>Status</source>
      <translation>状态</translation>
    </message>
    <message>
      <source>Left tokens</source>
      <translation>左侧 token</translation>
    </message>
    <message>
      <source>Right tokens</source>
      <translation>右侧 token</translation>
    </message>
    <message>
      <source>First difference</source>
      <translation>首个差异</translation>
    </message>
    <message>
      <source>The two requests are identical part by part.</source>
      <translation>两个请求逐部分完全相同。</translation>
    </message>
    <message>
      <source>&lt;b&gt;Left&lt;/b&gt; {left} · &lt;b&gt;Right&lt;/b&gt; {right}</source>
      <translation>&lt;b&gt;左&lt;/b&gt; {left} · &lt;b&gt;右&lt;/b&gt; {right}</translation>
    </message>
    <message>
      <source>{equal} equal, {changed} changed, {added} added, {removed} removed parts</source>
      <translation>{equal} 个相同、{changed} 个修改、{added} 个新增、{removed} 个移除的部分</translation>
    </message>
    <message>
      <source>char {n}</source>
      <translation>第 {n} 个字符</translation>
    </message>
    <message>
      <source>first difference</source>
      <translation>首个差异</translation>
    </message>
    <message>
      <source>First difference: &lt;b&gt;{path}&lt;/b&gt; at character {offset}</source>
      <translation>首个差异：&lt;b&gt;{path}&lt;/b&gt;，第 {offset} 个字符</translation>
    </message>
    <message>
      <source>Left: {path}</source>
      <translation>左：{path}</translation>
    </message>
    <message>
      <source>Right: {path}</source>
      <translation>右：{path}</translation>
    </message>
    <message>
      <source>(absent)</source>
      <translation>（不存在）</translation>
    </message>
  </context>
  <context>
    <name>Overview</name>
    <message>
      <source>yes</source>
      <translation>是</translation>
    </message>
    <message>
      <source>no</source>
      <translation>否</translation>
    </message>
    <message>
      <source>No database open</source>
      <translation>未打开数据库</translation>
    </message>
    <message>
      <source>Open a covel.db with File → Open (Ctrl+O), drop one on this window, or pick one from File → Open Recent.</source>
      <translation>通过“文件 → 打开”（Ctrl+O）打开 covel.db，或将文件拖放到此窗口，或从“文件 → 最近打开”中选择。</translation>
    </message>
    <message>
      <source>Select a session, turn, runtime or request in the navigator to see its details.</source>
      <translation>在导航栏中选择会话、轮次、运行时或请求以查看详情。</translation>
    </message>
    <message>
      <source>File</source>
      <translation>文件</translation>
    </message>
    <message>
      <source>Opened</source>
      <translation>打开方式</translation>
    </message>
    <message>
      <source>Sessions</source>
      <translation>会话</translation>
    </message>
    <message>
      <source>Turns</source>
      <translation>轮次</translation>
    </message>
    <message>
      <source>Model requests</source>
      <translation>模型请求</translation>
    </message>
    <message>
      <source>Session</source>
      <translation>会话</translation>
    </message>
    <message>
      <source>Schema note</source>
      <translation>结构说明</translation>
    </message>
    <message>
      <source>Turn</source>
      <translation>轮次</translation>
    </message>
    <message>
      <source>Session id</source>
      <translation>会话 ID</translation>
    </message>
    <message>
      <source>World</source>
      <translation>世界</translation>
    </message>
    <message>
      <source>World id</source>
      <translation>世界 ID</translation>
    </message>
    <message>
      <source>Locale</source>
      <translation>语言区域</translation>
    </message>
    <message>
      <source>Phase</source>
      <translation>阶段</translation>
    </message>
    <message>
      <source>Status</source>
      <translation>状态</translation>
    </message>
    <message>
      <source>Completed player turns</source>
      <translation>已完成的玩家轮次</translation>
    </message>
    <message>
      <source>Trace events</source>
      <translation>追踪事件</translation>
    </message>
    <message>
      <source>Created</source>
      <translation>创建时间</translation>
    </message>
    <message>
      <source>Updated</source>
      <translation>更新时间</translation>
    </message>
    <message>
      <source>Runtime</source>
      <translation>运行时</translation>
    </message>
    <message>
      <source>Turn {number}</source>
      <translation>第 {number} 轮</translation>
    </message>
    <message>
      <source>Turn id</source>
      <translation>轮次 ID</translation>
    </message>
    <message>
      <source>Trace id</source>
      <translation>追踪 ID</translation>
    </message>
    <message>
      <source>Origin</source>
      <translation>来源</translation>
    </message>
    <message>
      <source>Commit status</source>
      <translation>提交状态</translation>
    </message>
    <message>
      <source>Started</source>
      <translation>开始时间</translation>
    </message>
    <message>
      <source>Ended</source>
      <translation>结束时间</translation>
    </message>
    <message>
      <source>Duration</source>
      <translation>耗时</translation>
    </message>
    <message>
      <source>Retry of</source>
      <translation>重试自</translation>
    </message>
    <message>
      <source>Retry scope</source>
      <translation>重试范围</translation>
    </message>
    <message>
      <source>Runtimes</source>
      <translation>运行时</translation>
    </message>
    <message>
      <source>(no runtime id)</source>
      <translation>（无运行时 ID）</translation>
    </message>
    <message>
      <source>Model request</source>
      <translation>模型请求</translation>
    </message>
    <message>
      <source>Runtime id</source>
      <translation>运行时 ID</translation>
    </message>
    <message>
      <source>Plugin</source>
      <translation>插件</translation>
    </message>
    <message>
      <source>Stage</source>
      <translation>阶段</translation>
    </message>
    <message>
      <source>Error</source>
      <translation>错误</translation>
    </message>
    <message>
      <source>Input tokens</source>
      <translation>输入 token</translation>
    </message>
    <message>
      <source>Cached tokens</source>
      <translation>缓存 token</translation>
    </message>
    <message>
      <source>Event id</source>
      <translation>事件 ID</translation>
    </message>
    <message>
      <source>Tool-loop step</source>
      <translation>工具循环步骤</translation>
    </message>
    <message>
      <source>Attempt</source>
      <translation>尝试次数</translation>
    </message>
    <message>
      <source>Model</source>
      <translation>模型</translation>
    </message>
    <message>
      <source>Provider</source>
      <translation>提供商</translation>
    </message>
    <message>
      <source>Protocol</source>
      <translation>协议</translation>
    </message>
    <message>
      <source>Transport attempts</source>
      <translation>传输尝试次数</translation>
    </message>
    <message>
      <source>Response event</source>
      <translation>响应事件</translation>
    </message>
    <message>
      <source>Finish reason</source>
      <translation>结束原因</translation>
    </message>
    <message>
      <source>Output tokens</source>
      <translation>输出 token</translation>
    </message>
    <message>
      <source>Cache-write tokens</source>
      <translation>缓存写入 token</translation>
    </message>
  </context>
  <context>
    <name>MainWindow</name>
    <message>
      <source>&amp;File</source>
      <translation>文件(&amp;F)</translation>
    </message>
    <message>
      <source>&amp;Open…</source>
      <translation>打开(&amp;O)…</translation>
    </message>
    <message>
      <source>Open a Covel database (covel.db)</source>
      <translation>打开 Covel 数据库（covel.db）</translation>
    </message>
    <message>
      <source>Open Database &amp;URL…</source>
      <translation>打开数据库 URL(&amp;U)…</translation>
    </message>
    <message>
      <source>Open a Covel store on a database server (PostgreSQL)</source>
      <translation>打开数据库服务器（PostgreSQL）上的 Covel 存储</translation>
    </message>
    <message>
      <source>Open &amp;Recent</source>
      <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
      <source>&amp;Reload</source>
      <translation>重新加载(&amp;R)</translation>
    </message>
    <message>
      <source>Read the database again, keeping the selection</source>
      <translation>重新读取数据库，并保留当前选择</translation>
    </message>
    <message>
      <source>&amp;Quit</source>
      <translation>退出(&amp;Q)</translation>
    </message>
    <message>
      <source>&amp;Edit</source>
      <translation>编辑(&amp;E)</translation>
    </message>
    <message>
      <source>&amp;Find…</source>
      <translation>查找(&amp;F)…</translation>
    </message>
    <message>
      <source>Search the prompts of all requests</source>
      <translation>在所有请求的提示词中搜索</translation>
    </message>
    <message>
      <source>&amp;Clear Filters</source>
      <translation>清除筛选(&amp;C)</translation>
    </message>
    <message>
      <source>&amp;View</source>
      <translation>视图(&amp;V)</translation>
    </message>
    <message>
      <source>&amp;Collapse All</source>
      <translation>全部折叠(&amp;C)</translation>
    </message>
    <message>
      <source>Show &amp;Overview</source>
      <translation>显示概览(&amp;O)</translation>
    </message>
    <message>
      <source>&amp;Help</source>
      <translation>帮助(&amp;H)</translation>
    </message>
    <message>
      <source>&amp;About Prompt Inspector</source>
      <translation>关于 Prompt Inspector(&amp;A)</translation>
    </message>
    <message>
      <source>About &amp;Qt</source>
      <translation>关于 &amp;Qt</translation>
    </message>
    <message>
      <source>Open Covel Database</source>
      <translation>打开 Covel 数据库</translation>
    </message>
    <message>
      <source>SQLite databases (*.db *.sqlite *.sqlite3);;All files (*)</source>
      <translation>SQLite 数据库 (*.db *.sqlite *.sqlite3);;所有文件 (*)</translation>
    </message>
    <message>
      <source>Cannot open database</source>
      <translation>无法打开数据库</translation>
    </message>
    <message>
      <source>About Prompt Inspector</source>
      <translation>关于 Prompt Inspector</translation>
    </message>
    <message>
      <source>read-only</source>
      <translation>只读</translation>
    </message>
    <message>
      <source>read-only snapshot (immutable)</source>
      <translation>只读快照（不可变）</translation>
    </message>
    <message>
      <source>No recent files</source>
      <translation>没有最近打开的文件</translation>
    </message>
    <message>
      <source>Clear Recent Files</source>
      <translation>清除最近文件</translation>
    </message>
    <message>
      <source>The previous selection is no longer in the database</source>
      <translation>之前选择的项目已不在数据库中</translation>
    </message>
    <message>
      <source>Cannot read the database</source>
      <translation>无法读取数据库</translation>
    </message>
    <message>
      <source>Opening {name}…</source>
      <translation>正在打开 {name}…</translation>
    </message>
    <message>
      <source>{name} — {app}</source>
      <translation>{name} — {app}</translation>
    </message>
    <message>
      <source>{sessions} sessions · {turns} turns · {requests} requests</source>
      <translation>{sessions} 个会话 · {turns} 个轮次 · {requests} 个请求</translation>
    </message>
    <message>
      <source>Opened {name}</source>
      <translation>已打开 {name}</translation>
    </message>
    <message>
      <source>Could not open {name}</source>
      <translation>无法打开 {name}</translation>
    </message>
    <message>
      <source>Opening…</source>
      <translation>正在打开…</translation>
    </message>
    <message>
      <source>&lt;h3&gt;Prompt Inspector {version}&lt;/h3&gt;&lt;p&gt;See exactly what the Covel role-play engine sent to a model, part by part, and why the prompt cache hit or missed.&lt;/p&gt;&lt;p&gt;Reads covel.db read-only. Qt {qt}, PySide6.&lt;/p&gt;</source>
      <translation>&lt;h3&gt;Prompt Inspector {version}&lt;/h3&gt;&lt;p&gt;逐段查看 Covel 角色扮演引擎发送给模型的确切内容，以及提示词缓存命中或未命中的原因。&lt;/p&gt;&lt;p&gt;以只读方式读取 covel.db。Qt {qt}，PySide6。&lt;/p&gt;</translation>
    </message>
    <message>
      <source>Removed {count} missing file(s) from the recent list: {names}</source>
      <translation>已从最近文件列表中移除 {count} 个不存在的文件：{names}</translation>
    </message>
    <message>
      <source>Loading…</source>
      <translation>正在加载…</translation>
    </message>
    <message>
      <source>Working…</source>
      <translation>正在处理…</translation>
    </message>
    <message>
      <source>{path} could not be opened.</source>
      <translation>无法打开 {path}。</translation>
    </message>
  </context>
  <context>
    <name>Navigator</name>
    <message>
      <source>{m} min {s} s</source>
      <translation>{m} 分 {s} 秒</translation>
    </message>
    <message>
      <source>Search prompts…</source>
      <translation>搜索提示词…</translation>
    </message>
    <message>
      <source>Find requests whose prompt contains this text (Ctrl+F)</source>
      <translation>查找提示词中包含此文本的请求（Ctrl+F）</translation>
    </message>
    <message>
      <source>Show only requests of this runtime</source>
      <translation>只显示此运行时的请求</translation>
    </message>
    <message>
      <source>Show only requests sent to this model</source>
      <translation>只显示发送给此模型的请求</translation>
    </message>
    <message>
      <source>{ms} ms</source>
      <translation>{ms} 毫秒</translation>
    </message>
    <message>
      <source>{s:.2f} s</source>
      <translation>{s:.2f} 秒</translation>
    </message>
    <message>
      <source>Request event {id}</source>
      <translation>请求事件 {id}</translation>
    </message>
    <message>
      <source>All runtimes</source>
      <translation>全部运行时</translation>
    </message>
    <message>
      <source>All models</source>
      <translation>全部模型</translation>
    </message>
    <message>
      <source>Name</source>
      <translation>名称</translation>
    </message>
    <message>
      <source>Detail</source>
      <translation>详情</translation>
    </message>
    <message>
      <source>Tokens</source>
      <translation>Token</translation>
    </message>
    <message>
      <source>Cached</source>
      <translation>已缓存</translation>
    </message>
    <message>
      <source>Duration</source>
      <translation>耗时</translation>
    </message>
    <message>
      <source>Session, turn number, runtime id, or tool-loop step and attempt</source>
      <translation>会话、轮次编号、运行时 ID，或工具循环步骤与尝试次数</translation>
    </message>
    <message>
      <source>World, origin and status, stage, or model and provider</source>
      <translation>世界、来源与状态、阶段，或模型与提供商</translation>
    </message>
    <message>
      <source>Input tokens reported by the provider (cache reads and writes included)</source>
      <translation>提供商报告的输入 token（含缓存读取与写入）</translation>
    </message>
    <message>
      <source>Input tokens the provider served from its prompt cache</source>
      <translation>提供商从提示词缓存中提供的输入 token</translation>
    </message>
    <message>
      <source>Wall-clock duration</source>
      <translation>实际耗时</translation>
    </message>
    <message>
      <source>(no runtime id)</source>
      <translation>（无运行时 ID）</translation>
    </message>
    <message>
      <source>Step {step}</source>
      <translation>步骤 {step}</translation>
    </message>
    <message>
      <source>unknown model</source>
      <translation>未知模型</translation>
    </message>
    <message>
      <source>Session {id}</source>
      <translation>会话 {id}</translation>
    </message>
    <message>
      <source>Turn id {id}, started {time}</source>
      <translation>轮次 ID {id}，开始于 {time}</translation>
    </message>
    <message>
      <source>Plugin {plugin}</source>
      <translation>插件 {plugin}</translation>
    </message>
    <message>
      <source>{n} turn</source>
      <translation>{n} 个轮次</translation>
    </message>
    <message>
      <source>{n} turns</source>
      <translation>{n} 个轮次</translation>
    </message>
    <message>
      <source>{n} request</source>
      <translation>{n} 个请求</translation>
    </message>
    <message>
      <source>{n} requests</source>
      <translation>{n} 个请求</translation>
    </message>
    <message>
      <source>Turn {number}</source>
      <translation>第 {number} 轮</translation>
    </message>
    <message>
      <source>no result</source>
      <translation>无结果</translation>
    </message>
    <message>
      <source>no stage</source>
      <translation>无阶段</translation>
    </message>
    <message>
      <source>Failed: {error}</source>
      <translation>失败：{error}</translation>
    </message>
    <message>
      <source>attempt {attempt}</source>
      <translation>第 {attempt} 次尝试</translation>
    </message>
    <message>
      <source>No model request with id {id} in this database.</source>
      <translation>此数据库中没有 ID 为 {id} 的模型请求。</translation>
    </message>
  </context>
  <context>
    <name>OpenUrlDialog</name>
    <message>
      <source>Open Database URL</source>
      <translation>打开数据库 URL</translation>
    </message>
    <message>
      <source>leave empty for none, ~/.pgpass or PGPASSWORD</source>
      <translation>无密码、使用 ~/.pgpass 或 PGPASSWORD 时留空</translation>
    </message>
    <message>
      <source>Remember the password in the system keyring</source>
      <translation>在系统钥匙串中记住密码</translation>
    </message>
    <message>
      <source>&amp;URL:</source>
      <translation>URL(&amp;U)：</translation>
    </message>
    <message>
      <source>&amp;Password:</source>
      <translation>密码(&amp;P)：</translation>
    </message>
    <message>
      <source>No system keyring is available: the password is not remembered</source>
      <translation>没有可用的系统钥匙串：不会记住密码</translation>
    </message>
    <message>
      <source>A Covel store in PostgreSQL, for example &lt;code&gt;{example}&lt;/code&gt;. Choose a schema with &lt;code&gt;?options=-csearch_path%3Dname&lt;/code&gt;. The connection only reads.</source>
      <translation>PostgreSQL 中的 Covel 存储，例如 &lt;code&gt;{example}&lt;/code&gt;。用 &lt;code&gt;?options=-csearch_path%3Dname&lt;/code&gt; 选择 schema。连接只读。</translation>
    </message>
  </context>
  <context>
    <name>PartNames</name>
    <message>
      <source>⟦cache breakpoint⟧</source>
      <translation>⟦缓存断点⟧</translation>
    </message>
    <message>
      <source>system prompt</source>
      <translation>系统提示词</translation>
    </message>
    <message>
      <source>preamble</source>
      <translation>前导</translation>
    </message>
    <message>
      <source>runtime body</source>
      <translation>运行时正文</translation>
    </message>
    <message>
      <source>stable segments</source>
      <translation>稳定片段</translation>
    </message>
    <message>
      <source>world info (before plugin)</source>
      <translation>世界书（插件前）</translation>
    </message>
    <message>
      <source>world info (after plugin)</source>
      <translation>世界书（插件后）</translation>
    </message>
    <message>
      <source>world info (after plugin; may include before-plugin entries)</source>
      <translation>世界书（插件后；可能含插件前条目）</translation>
    </message>
    <message>
      <source>session injects</source>
      <translation>会话注入</translation>
    </message>
    <message>
      <source>turn segments</source>
      <translation>回合片段</translation>
    </message>
    <message>
      <source>turn context</source>
      <translation>回合上下文</translation>
    </message>
    <message>
      <source>tools</source>
      <translation>工具</translation>
    </message>
    <message>
      <source>pre-history</source>
      <translation>历史前</translation>
    </message>
    <message>
      <source>summaries</source>
      <translation>摘要</translation>
    </message>
    <message>
      <source>summary note</source>
      <translation>摘要说明</translation>
    </message>
    <message>
      <source>history</source>
      <translation>历史</translation>
    </message>
    <message>
      <source>response format</source>
      <translation>响应格式</translation>
    </message>
    <message>
      <source>pictures</source>
      <translation>图片</translation>
    </message>
    <message>
      <source>current input</source>
      <translation>当前输入</translation>
    </message>
    <message>
      <source>current input (blank-input cue)</source>
      <translation>当前输入（空输入提示）</translation>
    </message>
    <message>
      <source>execution story</source>
      <translation>本回合叙事</translation>
    </message>
    <message>
      <source>closing cue</source>
      <translation>收尾提示</translation>
    </message>
    <message>
      <source>post-history (or depth-0 insertions)</source>
      <translation>历史后（或深度 0 插入）</translation>
    </message>
    <message>
      <source>tool loop</source>
      <translation>工具循环</translation>
    </message>
    <message>
      <source>leading system message (pre-history or depth insertion)</source>
      <translation>开头的系统消息（历史前或深度插入）</translation>
    </message>
    <message>
      <source>cache breakpoint (sentinel)</source>
      <translation>缓存断点（哨兵）</translation>
    </message>
    <message>
      <source>cache breakpoint (cache_control)</source>
      <translation>缓存断点（cache_control）</translation>
    </message>
    <message>
      <source>continuation opener</source>
      <translation>续写开头</translation>
    </message>
    <message>
      <source>pruned-history marker</source>
      <translation>历史裁剪标记</translation>
    </message>
    <message>
      <source>unrecognised text before the runtime body</source>
      <translation>运行时正文之前无法识别的文本</translation>
    </message>
    <message>
      <source>untagged segment</source>
      <translation>无标签片段</translation>
    </message>
    <message>
      <source>untagged text</source>
      <translation>无标签文本</translation>
    </message>
    <message>
      <source>pre-history extension message</source>
      <translation>历史前扩展消息</translation>
    </message>
    <message>
      <source>depth insertion or late system segment</source>
      <translation>深度插入或后置系统片段</translation>
    </message>
    <message>
      <source>post-history segment or depth-0 insertion</source>
      <translation>历史后片段或深度 0 插入</translation>
    </message>
    <message>
      <source>tool calls</source>
      <translation>工具调用</translation>
    </message>
    <message>
      <source>tool result</source>
      <translation>工具结果</translation>
    </message>
    <message>
      <source>steering or retry hint</source>
      <translation>引导或重试提示</translation>
    </message>
    <message>
      <source>setup</source>
      <translation>设定中</translation>
    </message>
    <message>
      <source>playing</source>
      <translation>游玩中</translation>
    </message>
    <message>
      <source>player</source>
      <translation>玩家</translation>
    </message>
    <message>
      <source>manual</source>
      <translation>手动</translation>
    </message>
    <message>
      <source>follower</source>
      <translation>跟随</translation>
    </message>
    <message>
      <source>recursive</source>
      <translation>递归</translation>
    </message>
    <message>
      <source>continuation</source>
      <translation>续写</translation>
    </message>
    <message>
      <source>pending</source>
      <translation>待提交</translation>
    </message>
    <message>
      <source>committed</source>
      <translation>已提交</translation>
    </message>
    <message>
      <source>uncommitted</source>
      <translation>未提交</translation>
    </message>
    <message>
      <source>failed</source>
      <translation>失败</translation>
    </message>
    <message>
      <source>success</source>
      <translation>成功</translation>
    </message>
    <message>
      <source>started</source>
      <translation>已开始</translation>
    </message>
    <message>
      <source>skipped</source>
      <translation>已跳过</translation>
    </message>
    <message>
      <source>deferred</source>
      <translation>已推迟</translation>
    </message>
    <message>
      <source>suspended</source>
      <translation>已挂起</translation>
    </message>
    <message>
      <source>completed</source>
      <translation>已完成</translation>
    </message>
  </context>
  <context>
    <name>RequestView</name>
    <message>
      <source>No response was recorded for this request.</source>
      <translation>此请求没有记录响应。</translation>
    </message>
    <message>
      <source>Compare with…</source>
      <translation>与…比较</translation>
    </message>
    <message>
      <source>Filter by runtime, model or id</source>
      <translation>按运行时、模型或 ID 筛选</translation>
    </message>
    <message>
      <source>Copy</source>
      <translation>复制</translation>
    </message>
    <message>
      <source>Copy the anatomy or the provider body</source>
      <translation>复制请求结构或服务商请求体</translation>
    </message>
    <message>
      <source>Export</source>
      <translation>导出</translation>
    </message>
    <message>
      <source>Save the anatomy or the provider body to a file</source>
      <translation>将请求结构或服务商请求体保存到文件</translation>
    </message>
    <message>
      <source>Compare</source>
      <translation>比较</translation>
    </message>
    <message>
      <source>Compare this request with another one, part by part</source>
      <translation>将此请求与另一个请求逐部分比较</translation>
    </message>
    <message>
      <source>Segment stack</source>
      <translation>片段栈</translation>
    </message>
    <message>
      <source>Turn context</source>
      <translation>回合上下文</translation>
    </message>
    <message>
      <source>History bags</source>
      <translation>历史分组</translation>
    </message>
    <message>
      <source>Anatomy</source>
      <translation>结构</translation>
    </message>
    <message>
      <source>Kernel messages</source>
      <translation>内核消息</translation>
    </message>
    <message>
      <source>Provider body</source>
      <translation>服务商请求体</translation>
    </message>
    <message>
      <source>Response</source>
      <translation>响应</translation>
    </message>
    <message>
      <source>Raw event</source>
      <translation>原始事件</translation>
    </message>
    <message>
      <source>Copy Anatomy as &amp;Markdown</source>
      <translation>将结构复制为 Markdown(&amp;M)</translation>
    </message>
    <message>
      <source>Copy Anatomy as &amp;JSON</source>
      <translation>将结构复制为 JSON(&amp;J)</translation>
    </message>
    <message>
      <source>Copy &amp;Provider Body</source>
      <translation>复制服务商请求体(&amp;P)</translation>
    </message>
    <message>
      <source>Anatomy as &amp;Markdown…</source>
      <translation>结构（Markdown）(&amp;M)…</translation>
    </message>
    <message>
      <source>Anatomy as &amp;JSON…</source>
      <translation>结构（JSON）(&amp;J)…</translation>
    </message>
    <message>
      <source>&amp;Provider Body…</source>
      <translation>服务商请求体(&amp;P)…</translation>
    </message>
    <message>
      <source>Compare with &amp;Previous Turn</source>
      <translation>与上一回合比较(&amp;P)</translation>
    </message>
    <message>
      <source>Compare &amp;with…</source>
      <translation>与…比较(&amp;W)</translation>
    </message>
    <message>
      <source>Request not shown</source>
      <translation>未显示请求</translation>
    </message>
    <message>
      <source>kernel messages</source>
      <translation>内核消息</translation>
    </message>
    <message>
      <source>payload.messages and tools as Covel recorded them</source>
      <translation>Covel 记录的 payload.messages 与工具</translation>
    </message>
    <message>
      <source>the provider body</source>
      <translation>服务商请求体</translation>
    </message>
    <message>
      <source>Export Request</source>
      <translation>导出请求</translation>
    </message>
    <message>
      <source>Comparing…</source>
      <translation>正在比较…</translation>
    </message>
    <message>
      <source>Turn</source>
      <translation>回合</translation>
    </message>
    <message>
      <source>Runtime</source>
      <translation>运行时</translation>
    </message>
    <message>
      <source>Step</source>
      <translation>步骤</translation>
    </message>
    <message>
      <source>Attempt</source>
      <translation>尝试</translation>
    </message>
    <message>
      <source>Model</source>
      <translation>模型</translation>
    </message>
    <message>
      <source>Input tokens</source>
      <translation>输入 token</translation>
    </message>
    <message>
      <source>Request id</source>
      <translation>请求 ID</translation>
    </message>
    <message>
      <source>No database is open.</source>
      <translation>尚未打开数据库。</translation>
    </message>
    <message>
      <source>Select a part to see its text</source>
      <translation>选择一个部分以查看其文本</translation>
    </message>
    <message>
      <source>{title} — {tokens} tokens, {share}</source>
      <translation>{title} — {tokens} 个 token，{share}</translation>
    </message>
    <message>
      <source>finish: {finish} · {ms} ms</source>
      <translation>结束原因：{finish} · {ms} 毫秒</translation>
    </message>
    <message>
      <source>No provider body was recorded; the anatomy uses the kernel messages.</source>
      <translation>没有记录服务商请求体；结构基于内核消息。</translation>
    </message>
    <message>
      <source>none</source>
      <translation>无</translation>
    </message>
    <message>
      <source>complete body</source>
      <translation>完整请求体</translation>
    </message>
    <message>
      <source>failed</source>
      <translation>失败</translation>
    </message>
    <message>
      <source>the anatomy as Markdown</source>
      <translation>Markdown 格式的结构</translation>
    </message>
    <message>
      <source>the anatomy as JSON</source>
      <translation>JSON 格式的结构</translation>
    </message>
    <message>
      <source>Markdown (*.md);;All files (*)</source>
      <translation>Markdown (*.md);;所有文件 (*)</translation>
    </message>
    <message>
      <source>JSON (*.json);;All files (*)</source>
      <translation>JSON (*.json);;所有文件 (*)</translation>
    </message>
    <message>
      <source>This runtime did not run in an earlier turn of the session.</source>
      <translation>此运行时在本会话更早的回合中没有运行过。</translation>
    </message>
    <message>
      <source>The previous request cannot be read.</source>
      <translation>无法读取上一个请求。</translation>
    </message>
    <message>
      <source>Loading request {id}…</source>
      <translation>正在加载请求 {id}…</translation>
    </message>
    <message>
      <source>Cannot read request {id}: {error}</source>
      <translation>无法读取请求 {id}：{error}</translation>
    </message>
    <message>
      <source>&lt;b&gt;{exact}&lt;/b&gt; tokens ({encoding}, {provenance})</source>
      <translation>&lt;b&gt;{exact}&lt;/b&gt; 个 token（{encoding}，{provenance}）</translation>
    </message>
    <message>
      <source>&lt;b&gt;{est}&lt;/b&gt; estimated tokens</source>
      <translation>估算 &lt;b&gt;{est}&lt;/b&gt; 个 token</translation>
    </message>
    <message>
      <source>turn {turn}</source>
      <translation>回合 {turn}</translation>
    </message>
    <message>
      <source>reported input {input} · cached {cached} · cache write {write} · output {output}</source>
      <translation>上报输入 {input} · 缓存命中 {cached} · 缓存写入 {write} · 输出 {output}</translation>
    </message>
    <message>
      <source>trace_events row {id}</source>
      <translation>trace_events 行 {id}</translation>
    </message>
    <message>
      <source>{title} — none</source>
      <translation>{title} — 无</translation>
    </message>
    <message>
      <source>Attempt {n}</source>
      <translation>第 {n} 次尝试</translation>
    </message>
    <message>
      <source>completeness not recorded</source>
      <translation>未记录完整性</translation>
    </message>
    <message>
      <source>status {code}</source>
      <translation>状态码 {code}</translation>
    </message>
    <message>
      <source>Cache breakpoint ({label}): the provider caches everything before it</source>
      <translation>缓存断点（{label}）：服务商会缓存它之前的全部内容</translation>
    </message>
    <message>
      <source>Copied {what} to the clipboard</source>
      <translation>已将{what}复制到剪贴板</translation>
    </message>
    <message>
      <source>Saved {path}</source>
      <translation>已保存 {path}</translation>
    </message>
    <message>
      <source>{id} is not a model request in this database.</source>
      <translation>{id} 不是此数据库中的模型请求。</translation>
    </message>
    <message>
      <source>{n} transport attempts</source>
      <translation>{n} 次传输尝试</translation>
    </message>
    <message>
      <source>retry reason: {reason}</source>
      <translation>重试原因：{reason}</translation>
    </message>
    <message>
      <source>bodyRef → attempt {n} (body resolved from it)</source>
      <translation>bodyRef → 第 {n} 次尝试（请求体由其还原）</translation>
    </message>
    <message>
      <source>body error: {error}</source>
      <translation>请求体错误：{error}</translation>
    </message>
    <message>
      <source>{exact} tokens</source>
      <translation>{exact} 个 token</translation>
    </message>
    <message>
      <source>{est} estimated tokens</source>
      <translation>估算 {est} 个 token</translation>
    </message>
    <message>
      <source>Cannot show this text: {error}</source>
      <translation>无法显示此文本：{error}</translation>
    </message>
    <message>
      <source>partial body: {n} omitted fields</source>
      <translation>不完整的请求体：省略了 {n} 个字段</translation>
    </message>
    <message>
      <source>Cannot write {path}: {error}</source>
      <translation>无法写入 {path}：{error}</translation>
    </message>
    <message>
      <source>(no runtime)</source>
      <translation>（无运行时）</translation>
    </message>
    <message>
      <source>step {step} · attempt {attempt}</source>
      <translation>步骤 {step} · 尝试 {attempt}</translation>
    </message>
    <message>
      <source>recognised by {how}</source>
      <translation>识别依据：{how}</translation>
    </message>
  </context>
  <context>
    <name>TextPane</name>
    <message>
      <source>Wrap</source>
      <translation>自动换行</translation>
    </message>
    <message>
      <source>Wrap long lines</source>
      <translation>长行自动换行</translation>
    </message>
    <message>
      <source>Find in text (Enter: next, Shift+Enter: previous)</source>
      <translation>在文本中查找（Enter：下一个，Shift+Enter：上一个）</translation>
    </message>
    <message>
      <source>Previous match</source>
      <translation>上一个匹配</translation>
    </message>
    <message>
      <source>Next match</source>
      <translation>下一个匹配</translation>
    </message>
    <message>
      <source>Close (Esc)</source>
      <translation>关闭 (Esc)</translation>
    </message>
    <message>
      <source>No match</source>
      <translation>无匹配</translation>
    </message>
    <message>
      <source>Show all ({size:,} characters)</source>
      <translation>显示全部（{size:,} 个字符）</translation>
    </message>
    <message>
      <source>Only the first {n:,} characters are shown; show the whole text</source>
      <translation>仅显示前 {n:,} 个字符；点击显示全文</translation>
    </message>
  </context>
  <context>
    <name>TurnDock</name>
    <message>
      <source>&amp;View</source>
      <translation>视图(&amp;V)</translation>
    </message>
    <message>
      <source>Turn &amp;Stepper</source>
      <translation>回合步进器(&amp;S)</translation>
    </message>
    <message>
      <source>Step through the selected turn event by event</source>
      <translation>逐个事件地步进查看所选回合</translation>
    </message>
    <message>
      <source>Step Through Selected &amp;Turns</source>
      <translation>步进查看所选回合(&amp;T)</translation>
    </message>
    <message>
      <source>Selecting a turn in the navigator opens it in the turn stepper</source>
      <translation>在导航器中选择回合时，在回合步进器中打开它</translation>
    </message>
  </context>
  <context>
    <name>TurnView</name>
    <message>
      <source>sent</source>
      <translation>已发送</translation>
    </message>
    <message>
      <source>current</source>
      <translation>当前</translation>
    </message>
    <message>
      <source>compacted</source>
      <translation>已压缩</translation>
    </message>
    <message>
      <source>outside window</source>
      <translation>窗口之外</translation>
    </message>
    <message>
      <source>pruned</source>
      <translation>已裁剪</translation>
    </message>
    <message>
      <source>not sent</source>
      <translation>未发送</translation>
    </message>
    <message>
      <source>— Text —</source>
      <translation>— 文本 —</translation>
    </message>
    <message>
      <source>— Input —</source>
      <translation>— 输入 —</translation>
    </message>
    <message>
      <source>— This row —</source>
      <translation>— 本行 —</translation>
    </message>
    <message>
      <source>stage</source>
      <translation>阶段</translation>
    </message>
    <message>
      <source>(no runtime id)</source>
      <translation>（无运行时 ID）</translation>
    </message>
    <message>
      <source>Plugin</source>
      <translation>插件</translation>
    </message>
    <message>
      <source>Stage</source>
      <translation>阶段</translation>
    </message>
    <message>
      <source>Status</source>
      <translation>状态</translation>
    </message>
    <message>
      <source>Parallel group</source>
      <translation>并行组</translation>
    </message>
    <message>
      <source>Start</source>
      <translation>开始</translation>
    </message>
    <message>
      <source>End</source>
      <translation>结束</translation>
    </message>
    <message>
      <source>Duration</source>
      <translation>耗时</translation>
    </message>
    <message>
      <source>Model calls</source>
      <translation>模型调用</translation>
    </message>
    <message>
      <source>Tool calls</source>
      <translation>工具调用</translation>
    </message>
    <message>
      <source>Error</source>
      <translation>错误</translation>
    </message>
    <message>
      <source>Reason</source>
      <translation>原因</translation>
    </message>
    <message>
      <source>Step</source>
      <translation>步骤</translation>
    </message>
    <message>
      <source>Attempt</source>
      <translation>尝试</translation>
    </message>
    <message>
      <source>Model</source>
      <translation>模型</translation>
    </message>
    <message>
      <source>Provider</source>
      <translation>提供方</translation>
    </message>
    <message>
      <source>Queue wait</source>
      <translation>排队等待</translation>
    </message>
    <message>
      <source>Input tokens</source>
      <translation>输入 token</translation>
    </message>
    <message>
      <source>Cached tokens</source>
      <translation>缓存 token</translation>
    </message>
    <message>
      <source>Output tokens</source>
      <translation>输出 token</translation>
    </message>
    <message>
      <source>Finish reason</source>
      <translation>结束原因</translation>
    </message>
    <message>
      <source>Tools requested</source>
      <translation>请求的工具</translation>
    </message>
    <message>
      <source>Approval</source>
      <translation>审批</translation>
    </message>
    <message>
      <source>Input</source>
      <translation>输入</translation>
    </message>
    <message>
      <source>Output</source>
      <translation>输出</translation>
    </message>
    <message>
      <source>No turn selected</source>
      <translation>未选择回合</translation>
    </message>
    <message>
      <source>First event (Home)</source>
      <translation>第一个事件（Home）</translation>
    </message>
    <message>
      <source>Previous stage (Shift+Left or [)</source>
      <translation>上一阶段（Shift+← 或 [）</translation>
    </message>
    <message>
      <source>Previous event (Left or K)</source>
      <translation>上一个事件（← 或 K）</translation>
    </message>
    <message>
      <source>Play / pause (Space)</source>
      <translation>播放 / 暂停（空格）</translation>
    </message>
    <message>
      <source>Next event (Right or J)</source>
      <translation>下一个事件（→ 或 J）</translation>
    </message>
    <message>
      <source>Next stage (Shift+Right or ])</source>
      <translation>下一阶段（Shift+→ 或 ]）</translation>
    </message>
    <message>
      <source>Last event (End)</source>
      <translation>最后一个事件（End）</translation>
    </message>
    <message>
      <source>Play speed: a multiple of the recorded timing (long waits shortened to 1.5 s), or a fixed pace per event</source>
      <translation>播放速度：按记录时间的倍数（长时间等待缩短为 1.5 秒），或每个事件固定间隔</translation>
    </message>
    <message>
      <source>Step through the turn with ← →, or click the timeline.</source>
      <translation>用 ← → 步进查看回合，或点击时间线。</translation>
    </message>
    <message>
      <source>Next Event</source>
      <translation>下一个事件</translation>
    </message>
    <message>
      <source>Previous Event</source>
      <translation>上一个事件</translation>
    </message>
    <message>
      <source>Next Stage</source>
      <translation>下一阶段</translation>
    </message>
    <message>
      <source>Previous Stage</source>
      <translation>上一阶段</translation>
    </message>
    <message>
      <source>Play / Pause</source>
      <translation>播放 / 暂停</translation>
    </message>
    <message>
      <source>First Event</source>
      <translation>第一个事件</translation>
    </message>
    <message>
      <source>Last Event</source>
      <translation>最后一个事件</translation>
    </message>
    <message>
      <source>No turn shown</source>
      <translation>未显示回合</translation>
    </message>
    <message>
      <source>turn</source>
      <translation>回合</translation>
    </message>
    <message>
      <source>Loading the history this call saw…</source>
      <translation>正在加载此调用看到的历史…</translation>
    </message>
    <message>
      <source>(no text)</source>
      <translation>（无文本）</translation>
    </message>
    <message>
      <source>— Tool calls —</source>
      <translation>— 工具调用 —</translation>
    </message>
    <message>
      <source>(none recorded)</source>
      <translation>（未记录）</translation>
    </message>
    <message>
      <source>— Output —</source>
      <translation>— 输出 —</translation>
    </message>
    <message>
      <source>— Error —</source>
      <translation>— 错误 —</translation>
    </message>
    <message>
      <source>No turn loaded</source>
      <translation>未加载回合</translation>
    </message>
    <message>
      <source>no times recorded</source>
      <translation>未记录时间</translation>
    </message>
    <message>
      <source>success</source>
      <translation>成功</translation>
    </message>
    <message>
      <source>failed</source>
      <translation>失败</translation>
    </message>
    <message>
      <source>skipped</source>
      <translation>跳过</translation>
    </message>
    <message>
      <source>deferred</source>
      <translation>推迟</translation>
    </message>
    <message>
      <source>suspended</source>
      <translation>挂起</translation>
    </message>
    <message>
      <source>running</source>
      <translation>运行中</translation>
    </message>
    <message>
      <source>model call (step·attempt)</source>
      <translation>模型调用（步骤·尝试）</translation>
    </message>
    <message>
      <source>tool call</source>
      <translation>工具调用</translation>
    </message>
    <message>
      <source>none (after stages)</source>
      <translation>无（阶段之后）</translation>
    </message>
    <message>
      <source>Model call</source>
      <translation>模型调用</translation>
    </message>
    <message>
      <source>Tool call</source>
      <translation>工具调用</translation>
    </message>
    <message>
      <source>State</source>
      <translation>状态</translation>
    </message>
    <message>
      <source>#</source>
      <translation>#</translation>
    </message>
    <message>
      <source>Turn</source>
      <translation>回合</translation>
    </message>
    <message>
      <source>Role</source>
      <translation>角色</translation>
    </message>
    <message>
      <source>Content</source>
      <translation>内容</translation>
    </message>
    <message>
      <source>No database is open.</source>
      <translation>没有打开数据库。</translation>
    </message>
    <message>
      <source>after stages</source>
      <translation>阶段之后</translation>
    </message>
    <message>
      <source>unknown event type</source>
      <translation>未知事件类型</translation>
    </message>
    <message>
      <source>History this call saw: {counts}</source>
      <translation>此调用看到的历史：{counts}</translation>
    </message>
    <message>
      <source>{n} failed</source>
      <translation>{n} 个失败</translation>
    </message>
    <message>
      <source>{n} skipped</source>
      <translation>{n} 个跳过</translation>
    </message>
    <message>
      <source>{n} deferred</source>
      <translation>{n} 个推迟</translation>
    </message>
    <message>
      <source>{n} suspended</source>
      <translation>{n} 个挂起</translation>
    </message>
    <message>
      <source>{calls} calls · input {input} (cached {cached}) · output {output}</source>
      <translation>{calls} 次调用 · 输入 {input}（缓存 {cached}）· 输出 {output}</translation>
    </message>
    <message>
      <source>Finish reason: {reason} · duration {duration}</source>
      <translation>结束原因：{reason} · 耗时 {duration}</translation>
    </message>
    <message>
      <source>no response</source>
      <translation>无响应</translation>
    </message>
    <message>
      <source>Loading turn {id}…</source>
      <translation>正在加载回合 {id}…</translation>
    </message>
    <message>
      <source>event {i} of {n} · {offset} · {where}</source>
      <translation>第 {i} / {n} 个事件 · {offset} · {where}</translation>
    </message>
    <message>
      <source>no journal rows</source>
      <translation>无日志行</translation>
    </message>
    <message>
      <source>{n} ran</source>
      <translation>{n} 个运行</translation>
    </message>
    <message>
      <source>{n} succeeded</source>
      <translation>{n} 个成功</translation>
    </message>
    <message>
      <source>${usd} input at list price</source>
      <translation>按标价计输入 ${usd}</translation>
    </message>
    <message>
      <source>Usage: input {input} (cached {cached}, cache write {write}) · output {output}</source>
      <translation>用量：输入 {input}（缓存 {cached}，缓存写入 {write}）· 输出 {output}</translation>
    </message>
    <message>
      <source>Error: {error}</source>
      <translation>错误：{error}</translation>
    </message>
    <message>
      <source>Asked for by step {n}</source>
      <translation>由第 {n} 步请求</translation>
    </message>
    <message>
      <source>{n} ms per event</source>
      <translation>每个事件 {n} 毫秒</translation>
    </message>
    <message>
      <source>Cannot show turn {id}: {reason}</source>
      <translation>无法显示回合 {id}：{reason}</translation>
    </message>
    <message>
      <source>retry of {id}</source>
      <translation>重试自 {id}</translation>
    </message>
    <message>
      <source>{n} events · not started</source>
      <translation>{n} 个事件 · 未开始</translation>
    </message>
    <message>
      <source>window of {n} turns</source>
      <translation>{n} 个回合的窗口</translation>
    </message>
    <message>
      <source>{n} summaries sent</source>
      <translation>已发送 {n} 条摘要</translation>
    </message>
    <message>
      <source>What this turn did</source>
      <translation>本回合做了什么</translation>
    </message>
    <message>
      <source>Runtimes</source>
      <translation>运行时</translation>
    </message>
    <message>
      <source>{n} retried</source>
      <translation>{n} 次重试</translation>
    </message>
    <message>
      <source>Tokens</source>
      <translation>Token</translation>
    </message>
    <message>
      <source>Turn {id}</source>
      <translation>回合 {id}</translation>
    </message>
    <message>
      <source>No history: {reason}</source>
      <translation>无历史：{reason}</translation>
    </message>
    <message>
      <source>{n} calls without a price</source>
      <translation>{n} 次调用无价格</translation>
    </message>
    <message>
      <source>Cost</source>
      <translation>费用</translation>
    </message>
    <message>
      <source>no price known for these models</source>
      <translation>这些模型没有已知价格</translation>
    </message>
    <message>
      <source>Tool effects</source>
      <translation>工具效果</translation>
    </message>
    <message>
      <source>Player</source>
      <translation>玩家</translation>
    </message>
    <message>
      <source>Story</source>
      <translation>故事</translation>
    </message>
    <message>
      <source>this turn wrote no story</source>
      <translation>本回合没有写入故事</translation>
    </message>
    <message>
      <source>Retry</source>
      <translation>重试</translation>
    </message>
    <message>
      <source>re-ran {ids}</source>
      <translation>重新运行 {ids}</translation>
    </message>
    <message>
      <source>{n} results reused</source>
      <translation>复用了 {n} 个结果</translation>
    </message>
  </context>
</TS>
